"""docker-compose.yml: Redis 7 with AOF and noeviction, the API, two workers (one for webhooks) and one beat."""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

import pytest
import yaml

from app import WEBHOOK_POOL, Settings, queue_names
from tests.conftest import ROOT


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def test_services_and_redis_settings() -> None:
    services = compose()["services"]
    assert set(services) == {"redis", "api", "worker", "webhooks", "beat"}
    assert services["redis"]["image"].startswith("redis:7")
    command = " ".join(services["redis"]["command"])
    assert "--appendonly yes" in command and "--appendfsync everysec" in command
    assert "--maxmemory-policy noeviction" in command
    assert "gunicorn" in services["api"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "app:celery", "worker"]
    assert services["webhooks"]["command"][:4] == ["celery", "-A", "app:celery", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "app:celery", "beat"]


def option(command: list[str], name: str) -> str:
    """The value of ``name`` in ``command``, given as ``name value`` or ``name=value``."""
    for i, arg in enumerate(command):
        if arg == name:
            return command[i + 1]
        if arg.startswith(f"{name}="):
            return arg[len(name) + 1 :]
    raise AssertionError(f"{name} is not in {command}")


def test_the_workers_split_the_queues_as_orrery_up_does() -> None:
    loaded = compose()
    services = loaded["services"]
    names = queue_names(Settings.from_env({k: str(v) for k, v in loaded["x-orrery"]["environment"].items()}))
    worker, webhooks = services["worker"]["command"], services["webhooks"]["command"]
    assert option(worker, "--queues").split(",") == [names.main, names.bots]
    assert option(webhooks, "--queues").split(",") == [names.webhooks]
    assert option(worker, "--pool") == "prefork"
    assert option(webhooks, "--pool") == WEBHOOK_POOL
    assert int(option(webhooks, "--concurrency")) >= 50
    assert option(worker, "--hostname") != option(webhooks, "--hostname")
    assert all(option(c, "--hostname").endswith("@%h") for c in (worker, webhooks))


def compose_client() -> list[str] | None:
    """A compose client that answers ``version``, or None: a bare ``docker`` CLI without the plugin is not one."""
    candidates = [["docker-compose"], ["docker", "compose"]]
    for client in candidates:
        if shutil.which(client[0]) is None:
            continue
        try:
            probe = subprocess.run([*client, "version"], cwd=ROOT, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if probe.returncode == 0:
            return client
    return None


def test_docker_compose_config_accepts_it() -> None:
    client = compose_client()
    if client is None:
        pytest.skip("no working docker compose client here (install docker-compose or the docker compose plugin)")
    result = subprocess.run([*client, "config", "-q"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
