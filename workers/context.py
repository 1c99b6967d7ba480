"""Where a task finds its game service and settings: in the configuration of the Celery app that runs it.

The composition root puts both there when it makes a Celery app (``app.celery_config``): the settings,
and a factory that builds a :class:`~service.games.GameService` from them. A task calls :func:`service`,
which builds the service once per process and Celery app, on first use, in the worker process that runs
the task. This module never imports the composition root, so the tasks never import it back.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any, Protocol

from celery import current_app

from service.games import GameService

SERVICE_FACTORY = "orrery_service_factory"
"""The configuration key of the factory that builds a worker's game service."""

SETTINGS = "orrery_settings"
"""The configuration key of the deployment's settings."""

ServiceFactory = Callable[[], GameService]
"""Builds a new game service from the settings it was made with."""


class TaskSettings(Protocol):
    """The settings the tasks read themselves (the service factory reads the rest)."""

    @property
    def timer_lease_ms(self) -> int: ...

    @property
    def ladder_think_ms(self) -> int: ...


def config(settings: TaskSettings, factory: ServiceFactory) -> dict[str, Any]:
    """The entries of a Celery app's configuration that this module reads."""
    return {SETTINGS: settings, SERVICE_FACTORY: factory}


def _entry(key: str) -> Any:
    try:
        return current_app.conf[key]
    except KeyError:
        raise RuntimeError(
            f"the current Celery app has no {key!r}: make it with app.make_celery (celery -A app:celery)"
        ) from None


def service() -> GameService:
    """The game service of this process, built by the current Celery app's factory on first use."""
    return _built(_entry(SERVICE_FACTORY))


@functools.cache
def _built(factory: ServiceFactory) -> GameService:
    return factory()


os.register_at_fork(after_in_child=_built.cache_clear)
"""A forked process (a pool process the worker starts again) builds its own service: the parent's may be in
use by its other threads (the outbox followers) at the fork, with a lock held that no thread of the child
would ever release."""


def settings() -> TaskSettings:
    """The current Celery app's settings."""
    found: TaskSettings = _entry(SETTINGS)
    return found
