"""The Node starter bot (examples/node/bot.mjs) plays whole games through a real worker and the live API.

It needs Node 18 or newer (for the built-in ``fetch``); on a machine without it these tests skip.
"""

from __future__ import annotations

import datetime
import re
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from standardwebhooks.webhooks import Webhook

from events.embedded import free_port
from service.games import GameService
from tests.conftest import ROOT, TMP, Worker, wait_for
from tests.test_bots import GREEDY, create_webhook_game, deliveries, finished, fresh_hook_url

NODE = shutil.which("node")


def node_major() -> int:
    if NODE is None:
        return 0
    version = subprocess.run([NODE, "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.match(r"v(\d+)\.", version)
    return int(match[1]) if match else 0


pytestmark = [
    pytest.mark.skipif(NODE is None, reason="node is not installed"),
    pytest.mark.skipif(NODE is not None and node_major() < 18, reason="the Node bot needs Node 18+ for fetch"),
]


def listening(url: str) -> bool:
    try:
        requests.get(url, timeout=1)
    except requests.ConnectionError:
        return False
    return True


@pytest.fixture
def node_bot() -> Iterator[Any]:
    """Start ``bot.mjs`` on a free port with a secret and options; stopped after the test."""
    started: list[subprocess.Popen[bytes]] = []

    def start(port: int, secret: str, *extra: str) -> None:
        assert NODE is not None
        log = (TMP / f"node-bot-{port}.log").open("wb")
        command = [NODE, str(ROOT / "examples" / "node" / "bot.mjs"), "--port", str(port), "--secret", secret, *extra]
        started.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))
        wait_for(lambda: listening(f"http://127.0.0.1:{port}/"), timeout=20)

    yield start
    for bot in started:
        bot.terminate()
        bot.wait(10)


class TestNodeBot:
    @pytest.mark.parametrize(
        ("game_name", "mode"), [("homeworlds", "200"), ("homeworlds", "202"), ("planet-unknown", "200")]
    )
    def test_it_finishes_a_game_against_a_builtin_bot(
        self, live_server: str, worker: Worker, service: GameService, node_bot: Any, game_name: str, mode: str
    ) -> None:
        port = free_port()
        url = fresh_hook_url(port)
        game = create_webhook_game(live_server, url, game=game_name, opponent=GREEDY)
        node_bot(port, game["seats"][0]["webhook_secret"], *(["--reply-later"] if mode == "202" else []))
        record = wait_for(lambda: finished(service, game["id"]), timeout=240, interval=0.2)
        assert record.outcome is not None
        assert any(e.seat == 0 for e in service.events(game["id"]) if e.type != "GameCreated")
        log = deliveries(live_server, game)
        assert [d for d in log if d["outcome"] == {"200": "moved", "202": "accepted"}[mode]]
        assert not [d for d in log if "rejected" in (d["error"] or "")], log

    def test_it_refuses_a_forged_or_stale_signature(self, node_bot: Any) -> None:
        port = free_port()
        secret = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        node_bot(port, secret)
        body = b'{"type": "turn"}'
        forged = {"webhook-id": "msg_x", "webhook-timestamp": "1", "webhook-signature": "v1,AAAA"}
        response = requests.post(f"http://127.0.0.1:{port}/turn", data=body, headers=forged, timeout=5)
        assert response.status_code == 401
        stale = datetime.datetime.now(tz=datetime.UTC) - datetime.timedelta(hours=1)
        signed = {"webhook-id": "msg_y", "webhook-timestamp": str(int(stale.timestamp()))}
        signed["webhook-signature"] = Webhook(secret).sign("msg_y", stale, body.decode())
        response = requests.post(f"http://127.0.0.1:{port}/turn", data=body, headers=signed, timeout=5)
        assert response.status_code == 401 and "timestamp" in response.json()["error"]
