"""Registered bots: an identity with its own API key and, for a webhook bot, its own signing secret.

A registration names the bot, its transport (a webhook URL, checked by the webhook policy, or a
stream it pulls) and the games it plays. Its API key (``Authorization: Bearer <api_key>``) and its
signing secret are shown once, at registration and at each rotation; the store keeps the key's
sha256 only. Two registrations of the same URL get two secrets, so one can never sign for the other.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any

from domain import contract
from domain.table.seats import BUILTIN_PLAYER_PREFIX, webhook_secret
from service.games import GameService, InvalidRequest, ServiceError, Unauthorized, token_hash
from service.webhook_policy import UnsafeWebhookURL

MAX_NAME = 64
"""The longest bot name, in characters."""
MAX_CONCURRENT = 1000
"""The most games an auto-accept policy may let a bot play at once."""

ROTATABLE = ("secret", "key")


class UnknownBot(ServiceError):
    """No registered bot has this id."""

    code = "unknown_bot"


@dataclasses.dataclass(frozen=True, slots=True)
class Registered:
    """A new registration or rotation, with the secrets shown only this once."""

    bot: dict[str, Any]
    api_key: str | None = None
    webhook_secret: str | None = None


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class BotRegistry:
    """Registers bots and authenticates them by API key, over the game service's store."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store

    def register(
        self,
        name: str,
        games: Sequence[str],
        *,
        webhook: str | None,
        stream: bool,
        auto_accept: Mapping[str, Any] | None = None,
        ladder: bool = False,
    ) -> Registered:
        """A new bot, its API key and (for a webhook bot) its own signing secret.

        ``auto_accept`` (``{"games": [...], "max_concurrent": n}``) accepts every challenge for those games
        while the bot plays fewer than ``n`` games; ``ladder`` opts the bot in to the ladder's pairings.
        """
        name = name.strip()
        if not 1 <= len(name) <= MAX_NAME:
            raise InvalidRequest(f"a bot's name has 1 to {MAX_NAME} characters", field="name")
        if (webhook is None) == (not stream):
            raise InvalidRequest('name exactly one transport: "webhook": <url>, or "stream": true', field="webhook")
        hosted = contract.names()
        unknown = [g for g in games if g not in hosted]
        if not games or unknown:
            raise InvalidRequest(
                f"games must name at least one game this server hosts ({', '.join(hosted)})"
                + (f"; unknown: {', '.join(unknown)}" if unknown else ""),
                field="games",
            )
        if webhook is not None:
            try:
                self.service.webhook_policy.check_url(webhook)
            except UnsafeWebhookURL as refused:
                raise InvalidRequest(f"webhook URL refused: {refused}", field="webhook") from None
        policy = self._auto_accept(auto_accept, games)
        bot_id = f"bot_{secrets.token_hex(8)}"
        api_key = secrets.token_urlsafe(32)
        secret = webhook_secret() if webhook is not None else None
        fields = {
            "id": bot_id,
            "name": name,
            "games": json.dumps(sorted(set(games))),
            "webhook": webhook or "",
            "stream": "1" if stream else "",
            "webhook_secret": secret or "",
            "created_ms": str(_now_ms()),
            "auto_accept": "" if policy is None else json.dumps(policy),
            "ladder": "1" if ladder else "",
        }
        if not self.store.register_bot(bot_id, token_hash(api_key), fields):
            raise ServiceError("could not register the bot; try again")
        return Registered(self._public(fields, owner=True), api_key, secret)

    @staticmethod
    def _auto_accept(raw: Mapping[str, Any] | None, games: Sequence[str]) -> dict[str, Any] | None:
        if raw is None:
            return None
        chosen = raw.get("games")
        limit = raw.get("max_concurrent")
        if not isinstance(chosen, list) or not chosen or any(g not in games for g in chosen):
            raise InvalidRequest("auto_accept.games names one or more of the bot's own games", field="auto_accept")
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_CONCURRENT:
            raise InvalidRequest(
                f"auto_accept.max_concurrent is a whole number from 1 to {MAX_CONCURRENT}", field="auto_accept"
            )
        return {"games": sorted(set(chosen)), "max_concurrent": limit}

    def ensure_reference_players(self) -> list[str]:
        """Register the built-in bots as rated reference players (``builtin-<name>``), once; their ids."""
        ids = []
        for game_name in contract.names():
            for name in contract.get(game_name).bots:
                bot_id = BUILTIN_PLAYER_PREFIX + name
                ids.append(bot_id)
                known = self.store.bot(bot_id)
                games = sorted({*json.loads(known["games"]), game_name}) if known else [game_name]
                fields = {
                    "id": bot_id,
                    "name": f"{name} (built-in)",
                    "games": json.dumps(games),
                    "builtin": name,
                    "created_ms": known["created_ms"] if known else str(_now_ms()),
                    "ladder": "1",
                }
                self.store.put_reference_bot(bot_id, fields)
        return sorted(set(ids))

    def policy(self, bot_id: str) -> dict[str, Any] | None:
        """A registered bot's auto-accept policy, or None."""
        raw = (self.store.bot(bot_id) or {}).get("auto_accept")
        return json.loads(raw) if raw else None

    def authenticate(self, api_key: str | None) -> dict[str, str]:
        """The registration whose API key this is, or :class:`Unauthorized`."""
        if not api_key:
            raise Unauthorized("this needs a bot's API key: 'Authorization: Bearer <api_key>'")
        bot_id = self.store.bot_of_key(token_hash(api_key))
        found = None if bot_id is None else self.store.bot(bot_id)
        if found is None:
            raise Unauthorized("this is not a registered bot's API key")
        return found

    def me(self, api_key: str | None) -> dict[str, Any]:
        """The registration of this API key, as its owner sees it (no secret)."""
        return self._public(self.authenticate(api_key), owner=True)

    def rotate(self, api_key: str | None, what: str) -> Registered:
        """A new signing secret (``secret``, webhook bots only) or API key (``key``); the old one stops at once."""
        fields = self.authenticate(api_key)
        bot_id = fields["id"]
        if what == "secret":
            if not fields.get("webhook"):
                raise InvalidRequest("only a webhook bot has a signing secret", field="rotate")
            secret = webhook_secret()
            self.store.set_bot_field(bot_id, "webhook_secret", secret)
            return Registered(self._public(fields, owner=True), webhook_secret=secret)
        if what == "key":
            new_key = secrets.token_urlsafe(32)
            assert api_key is not None
            if not self.store.rotate_bot_key(bot_id, token_hash(api_key), token_hash(new_key)):
                raise Unauthorized("this API key was rotated already")
            return Registered(self._public(fields, owner=True), api_key=new_key)
        raise InvalidRequest(f"rotate names one of: {', '.join(ROTATABLE)}", field="rotate")

    def public(self, bot_id: str) -> dict[str, Any]:
        """A bot as anyone sees it: its name, games, kind of transport and when it registered."""
        fields = self.store.bot(bot_id)
        if fields is None:
            raise UnknownBot(f"there is no registered bot with id {bot_id!r}")
        return self._public(fields, owner=False)

    def signing_secret(self, bot_id: str) -> str | None:
        """The registration's own webhook signing secret (for the worker that signs its turn requests)."""
        fields = self.store.bot(bot_id)
        return (fields or {}).get("webhook_secret") or None

    @staticmethod
    def _public(fields: dict[str, str], *, owner: bool) -> dict[str, Any]:
        transport = "builtin" if fields.get("builtin") else "webhook" if fields.get("webhook") else "stream"
        out: dict[str, Any] = {
            "id": fields["id"],
            "name": fields["name"],
            "games": json.loads(fields["games"]),
            "transport": transport,
            "created_at": int(fields["created_ms"]),
            "ladder": bool(fields.get("ladder")),
        }
        if owner:
            out["auto_accept"] = json.loads(fields["auto_accept"]) if fields.get("auto_accept") else None
            if fields.get("webhook"):
                out["webhook"] = fields["webhook"]
        return out
