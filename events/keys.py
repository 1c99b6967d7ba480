"""Redis key names. Every key of a game carries its bucket's hash tag.

A game's keys and its bucket's outbox and index share one Redis Cluster slot,
so the append script touches a single slot. Games are spread over a fixed
number of buckets by a hash of their id.
"""

from __future__ import annotations

import dataclasses
import functools
import zlib

BUCKETS = 16


def bucket_of(game_id: str) -> int:
    """The bucket a game lives in."""
    return zlib.crc32(game_id.encode()) % BUCKETS


@dataclasses.dataclass(frozen=True, slots=True)
class GameKeys:
    """The keys of one game."""

    events: str
    meta: str
    idempotency: str
    snapshot: str
    tokens: str
    seed: str
    secrets: str
    deliveries: str
    verdicts: str
    listing: str
    outbox: str
    bucket: int
    snapshots: str = ""
    snapshot_states: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Keyspace:
    """Key names under one namespace (tests use a namespace of their own)."""

    namespace: str = "orrery"

    def tag(self, bucket: int) -> str:
        return f"{self.namespace}:{{b{bucket:02d}}}"

    def game(self, game_id: str) -> GameKeys:
        return _game_keys(self, game_id)

    def outbox(self, bucket: int) -> str:
        return f"{self.tag(bucket)}:outbox"

    def index(self, bucket: int, game: str, status: str) -> str:
        """A sorted set of game ids by creation time; ``*`` means any."""
        return f"{self.tag(bucket)}:idx:{game}:{status}"

    def timers(self, bucket: int) -> str:
        """A sorted set of due times: turn deadlines and bot watchdogs."""
        return f"{self.tag(bucket)}:timers"

    def bot(self, bot_id: str) -> str:
        """A registered bot: its name, games, transport, signing secret and the hash of its API key."""
        return f"{self.namespace}:{{bots}}:bot:{bot_id}"

    def bot_keys(self) -> str:
        """Which registered bot an API key belongs to, by the key's hash (on the registrations' slot)."""
        return f"{self.namespace}:{{bots}}:keys"

    def ladder(self) -> str:
        """The ids of the bots that play the ladder (on the registrations' slot)."""
        return f"{self.namespace}:{{bots}}:ladder"

    def ladder_pairs(self, game: str) -> str:
        """The ladder's pairs in one game kind: a hash from ``<player>|<player>`` (sorted) to the pair's latest
        game id, or ``pending:<ms>`` while a round creates it (on the ladder's own slot)."""
        return f"{self.namespace}:{{ladder}}:pairs:{game}"

    def bot_games(self, bot_id: str) -> str:
        """The games a registered bot accepted and that have not ended (on the registrations' slot)."""
        return f"{self.namespace}:{{bots}}:bot:{bot_id}:games"

    def ratings(self, game: str) -> str:
        """The hash tag of one game kind's ratings: every ratings key of that kind lives on its slot."""
        return f"{self.namespace}:{{ratings:{game}}}"

    def rating_players(self, game: str) -> str:
        """Each rated player's record in ``game`` (rating and counts), as JSON by player."""
        return f"{self.ratings(game)}:players"

    def rating_applied(self, game: str) -> str:
        """The ``RatingsUpdated`` payload of each game whose ratings were applied, by game id."""
        return f"{self.ratings(game)}:applied"

    def rating_board(self, game: str) -> str:
        """The leaderboard of ``game``: a sorted set of players by ordinal (thousandths)."""
        return f"{self.ratings(game)}:board"

    def rating_history(self, game: str, player: str) -> str:
        """One player's rating changes in ``game``, newest first, capped."""
        return f"{self.ratings(game)}:history:{player}"

    def inbox(self, owner: str) -> str:
        """One account's event stream: a registered bot's (``bot:<id>``) or a pull-only seat's (``seat:<hash>``)."""
        return f"{self.namespace}:{{inbox:{owner}}}:events"

    def inbox_seen(self, owner: str, key: str) -> str:
        """A marker that one event (by its deduplication key) is on ``owner``'s stream already."""
        return f"{self.namespace}:{{inbox:{owner}}}:seen:{key}"

    def inbox_reader(self, owner: str) -> str:
        """The one connection that may read ``owner``'s stream now."""
        return f"{self.namespace}:{{inbox:{owner}}}:reader"

    def webhooks(self) -> str:
        """Webhook endpoints by URL: their signing secret and whether a 410 disabled them."""
        return f"{self.namespace}:webhooks"

    def bot_tokens(self) -> str:
        """Which game and seat a bot seat's token belongs to, by the token's hash."""
        return f"{self.namespace}:bot-tokens"

    def wake(self, bucket: int, reader: str) -> str:
        """A stream that wakes one live-stream reader blocked on a bucket's games (see ``RedisStore.wait_many``)."""
        return f"{self.tag(bucket)}:wake:{reader}"

    def game_streams(self, game_id: str) -> str:
        """The open live streams of one game: a sorted set of stream ids scored by expiry (ms)."""
        return f"{self.tag(bucket_of(game_id))}:g:{game_id}:streams"

    def address_streams(self, address: str) -> str:
        """The open live streams of one client address: a sorted set of stream ids scored by expiry (ms)."""
        return f"{self.namespace}:streams:addr:{address}"

    def rate_limits(self) -> str:
        """The prefix of the rate limits' windows."""
        return f"{self.namespace}:limits"

    def rate_window(self, owner: str, name: str) -> str:
        """One rate limit's moving window for one owner: a sorted set of requests scored by time (ms), in the
        owner's slot (every window of one owner shares a slot, so one script checks them together)."""
        return f"{self.rate_limits()}:{{{owner}}}:{name}"

    def pattern(self) -> str:
        """A SCAN pattern for every key of this namespace."""
        return f"{self.namespace}:*"


@functools.lru_cache(maxsize=4096)
def _game_keys(keyspace: Keyspace, game_id: str) -> GameKeys:
    """The keys of one game, made once (a move needs them on every append)."""
    b = bucket_of(game_id)
    prefix = f"{keyspace.tag(b)}:g:{game_id}"
    return GameKeys(
        events=f"{prefix}:events",
        meta=f"{prefix}:meta",
        idempotency=f"{prefix}:idem",
        snapshot=f"{prefix}:snap",
        tokens=f"{prefix}:tokens",
        seed=f"{prefix}:seed",
        secrets=f"{prefix}:secrets",
        deliveries=f"{prefix}:deliveries",
        verdicts=f"{prefix}:verdicts",
        listing=f"{prefix}:listing",
        outbox=keyspace.outbox(b),
        bucket=b,
        snapshots=f"{prefix}:snaps",
        snapshot_states=f"{prefix}:snapv",
    )
