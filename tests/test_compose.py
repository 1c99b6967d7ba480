"""docker-compose.yml: Redis 7 with AOF and noeviction, the API, a worker and one beat."""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def test_services_and_redis_settings() -> None:
    services = compose()["services"]
    assert set(services) == {"redis", "api", "worker", "beat"}
    assert services["redis"]["image"].startswith("redis:7")
    command = " ".join(services["redis"]["command"])
    assert "--appendonly yes" in command and "--appendfsync everysec" in command
    assert "--maxmemory-policy noeviction" in command
    assert "gunicorn" in services["api"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "app:celery", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "app:celery", "beat"]


@pytest.mark.skipif(
    not (shutil.which("docker-compose") or shutil.which("docker")), reason="no docker compose client on this machine"
)
def test_docker_compose_config_accepts_it() -> None:
    client = ["docker-compose"] if shutil.which("docker-compose") else ["docker", "compose"]
    command = [*client, "config", "-q"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    if "unknown command" in result.stderr:
        pytest.skip("this docker client has no compose command")
    assert result.returncode == 0, result.stderr
