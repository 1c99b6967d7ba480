"""Seats that are bots, table options that every game has, and the timers they need.

A seat is a human (with a token), a built-in bot run by a worker, a webhook
bot that the worker POSTs turn requests to, a pull-only bot that reads its
turn requests from ``GET /v1/bots/stream`` with the token its creator was
given, or a registered bot (``{"id": ...}``), which is challenged and plays
only once it accepts. Table options (the turn deadline and what happens when it passes) are
the service's, not the rules'.
"""

from __future__ import annotations

import base64
import dataclasses
import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Protocol
from urllib.parse import urlparse

from domain import contract
from domain.contract import JSON, Game, InvalidOptionError, Option

DEFAULT_THINK_MS = 2000
MAX_THINK_MS = 60_000
BOT_GRACE_MS = 15_000
"""How long past its think time a built-in bot's turn may stay unplayed before a sweep dispatches it again."""
DEFAULT_CHALLENGE_TIMEOUT_S = 120
"""How long a challenged registered bot has to answer, unless the table's ``challenge_timeout_s`` says otherwise."""
BUILTIN_PLAYER_PREFIX = "builtin-"
"""A built-in bot's identity as a rated player: ``builtin-<name>``, such as ``builtin-search``."""
SCORE_GRACE_MS = 30_000
"""How long a finished game may stay unscored before a sweep scores it itself."""

TABLE_OPTIONS = (
    Option(
        "move_deadline_s", int, None, "seconds each turn may take; unset means no limit", minimum=1, maximum=30 * 86400
    ),
    Option(
        "on_timeout",
        str,
        "forfeit",
        "what happens when a turn's deadline passes: the seat forfeits, plays a random legal move, or passes",
        choices=("forfeit", "random", "pass"),
    ),
    Option(
        "rated",
        bool,
        None,
        "whether the game changes its players' ratings; unset means rated when a registered bot plays "
        "and at least two seats are rated players (registered or built-in bots)",
    ),
    Option(
        "challenge_timeout_s",
        int,
        DEFAULT_CHALLENGE_TIMEOUT_S,
        "seconds a challenged registered bot has to accept before the game is cancelled",
        minimum=1,
        maximum=86400,
    ),
    Option(
        "spectator_delay",
        int,
        0,
        "spectators see the game this many events behind while it runs (everything once it is over)",
        minimum=0,
        maximum=10_000,
    ),
)
TABLE_OPTION_NAMES = frozenset(o.name for o in TABLE_OPTIONS)


BOT_ID = re.compile(r"bot_[0-9a-f]{16}")
"""The shape of a registered bot's id."""


class InvalidSeat(ValueError):
    """A seat description the service cannot accept."""


@dataclasses.dataclass(frozen=True, slots=True)
class BotSeat:
    """A bot seat's description, as recorded in ``GameCreated`` (a webhook's URL is for the creator only)."""

    builtin: str | None = None
    think_ms: int = DEFAULT_THINK_MS
    webhook: str | None = None
    stream: bool = False
    """A pull-only bot: its turn requests go only to its pull stream, and its token to the game's creator."""
    bot_id: str | None = None
    """A registered bot: challenged at creation, sent its turns on its account stream (and its webhook)."""

    def public(self) -> dict[str, Any]:
        if self.bot_id is not None:
            return {"id": self.bot_id}
        if self.webhook is not None:
            return {"webhook": self.webhook}
        if self.stream:
            return {"stream": True}
        return {"builtin": self.builtin, "think_ms": self.think_ms}

    @staticmethod
    def hide_url(raw: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
        """A seat's public ``bot`` as anyone but the game's creator sees it: a webhook bot without its URL."""
        if raw is not None and "webhook" in raw:
            return {"webhook": True}
        return raw

    @classmethod
    def from_public(cls, raw: Mapping[str, Any] | None) -> BotSeat | None:
        if raw is None:
            return None
        if "id" in raw:
            return cls(bot_id=raw["id"])
        if "webhook" in raw:
            return cls(webhook=raw["webhook"])
        if raw.get("stream"):
            return cls(stream=True)
        return cls(builtin=raw["builtin"], think_ms=raw.get("think_ms", DEFAULT_THINK_MS))

    @property
    def player(self) -> str | None:
        """The rated player in this seat: a registered bot's id, ``builtin-<name>``, or None (anonymous)."""
        if self.bot_id is not None:
            return self.bot_id
        if self.builtin is not None:
            return BUILTIN_PLAYER_PREFIX + self.builtin
        return None


def players(seats: Sequence[Mapping[str, Any]]) -> list[str | None]:
    """The rated player of each seat of a ``GameCreated`` (None for a human or an unregistered bot)."""
    found = [BotSeat.from_public(seat["bot"]) for seat in seats]
    return [None if bot is None else bot.player for bot in found]


def registered(seats: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """The registered bot of each seat that has one, by seat."""
    found = {i: BotSeat.from_public(seat["bot"]) for i, seat in enumerate(seats)}
    return {i: bot.bot_id for i, bot in found.items() if bot is not None and bot.bot_id is not None}


def is_rated(options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a game with these table options and seats changes ratings (see the ``rated`` option)."""
    chosen = options.get("rated")
    if chosen is not None:
        return bool(chosen)
    return bool(registered(seats)) and len(rated_players(seats)) >= 2


def rated_players(seats: Sequence[Mapping[str, Any]]) -> list[str]:
    """The players a game can rate: each identified player that holds exactly one seat (self-play rates nobody)."""
    found = players(seats)
    return [p for p in found if p is not None and found.count(p) == 1]


class UrlPolicy(Protocol):
    """Which webhook URLs a server calls (:class:`service.webhook_policy.WebhookPolicy` is the server's)."""

    def check_url(self, url: str) -> None:
        """Raise :class:`ValueError` saying why ``url`` is refused."""
        ...


def parse_bot(game: Game[Any], index: int, raw: Mapping[str, JSON] | None, policy: UrlPolicy) -> BotSeat | None:
    """Validate one seat's ``bot`` object; a webhook URL must pass ``policy``."""
    if raw is None:
        return None
    where = f"seat {index}"
    unknown = sorted(set(raw) - {"builtin", "think_ms", "webhook", "stream", "id"})
    if unknown:
        raise InvalidSeat(
            f"{where}: unknown bot setting {unknown[0]!r}; use 'id' (a registered bot), 'builtin' (with 'think_ms'), "
            "'webhook' or 'stream'"
        )
    if sum(kind in raw for kind in ("builtin", "webhook", "stream", "id")) != 1:
        raise InvalidSeat(
            f"{where}: a bot is exactly one of {{'id': registered bot}}, {{'builtin': name}}, {{'webhook': url}} "
            "or {'stream': true}"
        )
    if "id" in raw:
        bot_id = raw["id"]
        if not isinstance(bot_id, str) or not BOT_ID.fullmatch(bot_id):
            raise InvalidSeat(f"{where}: 'id' names a registered bot by its id, such as 'bot_0123456789abcdef'")
        return BotSeat(bot_id=bot_id)
    if "stream" in raw:
        if raw["stream"] is not True:
            raise InvalidSeat(f"{where}: a pull-only bot is {{'stream': true}}")
        if "think_ms" in raw:
            raise InvalidSeat(f"{where}: think_ms applies to built-in bots only")
        return BotSeat(stream=True)
    if "webhook" in raw:
        url = raw["webhook"]
        parsed = urlparse(url) if isinstance(url, str) else None
        if not isinstance(url, str) or parsed is None or parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise InvalidSeat(f"{where}: webhook must be an http:// or https:// URL, not {url!r}")
        if "think_ms" in raw:
            raise InvalidSeat(f"{where}: think_ms applies to built-in bots only")
        try:
            policy.check_url(url)
        except ValueError as refused:
            raise InvalidSeat(f"{where}: webhook URL refused: {refused}") from None
        return BotSeat(webhook=url)
    name = raw["builtin"]
    if not isinstance(name, str):
        raise InvalidSeat(f"{where}: builtin names a bot as a string, e.g. {{'builtin': 'random'}}")
    if name not in game.bots:
        raise InvalidSeat(f"{where}: {game.name} has no built-in bot {name!r}; it has: {', '.join(sorted(game.bots))}")
    think_ms = raw.get("think_ms", DEFAULT_THINK_MS)
    if not isinstance(think_ms, int) or isinstance(think_ms, bool) or not 1 <= think_ms <= MAX_THINK_MS:
        raise InvalidSeat(f"{where}: think_ms must be a whole number of milliseconds from 1 to {MAX_THINK_MS}")
    return BotSeat(builtin=str(name), think_ms=think_ms)


def split_options(game: Game[Any], raw: Mapping[str, JSON]) -> dict[str, JSON]:
    """Validate the table options and the game's options together; one dict of both."""
    table = contract.parse_options(TABLE_OPTIONS, {k: v for k, v in raw.items() if k in TABLE_OPTION_NAMES})
    rules = contract.parse_options(game.options, {k: v for k, v in raw.items() if k not in TABLE_OPTION_NAMES})
    if table["on_timeout"] == "pass" and game.pass_move is None:
        raise InvalidOptionError(f"option 'on_timeout': {game.name} has no pass, so a timeout cannot pass")
    return rules | table


def rules_options(options: Mapping[str, JSON]) -> dict[str, JSON]:
    """The options the rules see: everything but the table options."""
    return {k: v for k, v in options.items() if k not in TABLE_OPTION_NAMES}


def webhook_secret() -> str:
    """A Standard Webhooks secret: ``whsec_`` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def timer_member(kind: str, game_id: str, version: int, seat: int | None = None) -> str:
    return f"{kind}|{game_id}|{version}" + ("" if seat is None else f"|{seat}")


def parse_timer(member: str) -> tuple[str, str, int, int | None]:
    parts = member.split("|")
    return parts[0], parts[1], int(parts[2]), int(parts[3]) if len(parts) > 3 else None
