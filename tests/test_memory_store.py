"""The in-memory store under the game service: the service's own tests, run on it.

The store's contract (``tests/test_store_contract.py``) runs on every store; this runs tests of the
service, whose fixture ``service`` is a Redis-backed one elsewhere, over a :class:`MemoryStore`.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from events.keys import Keyspace
from events.memory import MemoryStore
from service.bots import BotRegistry
from service.games import GameService
from service.webhook_policy import WebhookPolicy
from tests import test_service
from tests.conftest import NAMESPACE


@pytest.fixture
def service(app: Any) -> GameService[MemoryStore]:
    """A service like the app's (its games are loaded by ``app``), over a store of its own in memory."""
    settings = app.extensions["orrery.settings"]
    own = GameService(
        MemoryStore(Keyspace(f"{NAMESPACE}-memory-{uuid.uuid4().hex[:6]}")),
        snapshot_every=settings.snapshot_every,
        public_url=settings.public_url,
        webhook_policy=WebhookPolicy(settings.webhook_allow),
    )
    BotRegistry(own).ensure_reference_players()
    return own


class TestHiddenInformationInMemory(test_service.TestHiddenInformation):
    pass


class TestSeedInMemory(test_service.TestSeed):
    pass
