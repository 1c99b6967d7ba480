"""``orrery play``: a game in the terminal against built-in bots and webhook bots, with its export verified."""

from __future__ import annotations

import http.server
import io
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from standardwebhooks.webhooks import Webhook

import app

STRONG_SEED = "0123456789abcdef0123456789abcdef"
SECRET = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"


def play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lines: list[str], *argv: str
) -> tuple[int, str, str]:
    """``orrery play ARGV`` in this process with ``lines`` as what the player types."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = app.main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def verified(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    """What ``orrery verify`` prints for ``path``, which must pass."""
    code = app.main(["verify", str(path)])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    return out


def test_you_against_a_random_bot_by_always_taking_the_first_hint(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    export = tmp_path / "homeworlds.ndjson"
    code, out, _ = play(
        capsys, monkeypatch, ["1"] * 200, "--seat", "you", "--seat", "builtin:random", "--export", str(export)
    )
    assert code == 0, out[-3000:]
    assert "seat 0 (you) to move" in out and "legal moves" in out and "1) homeworld" in out
    assert "Game over" in out and f"Export: {export}" in out
    header = json.loads(export.read_text().splitlines()[0])
    assert header["complete"] is True and header["status"] == "finished"
    assert verified(capsys, export).startswith("OK:")


def test_hints_filters_typed_moves_and_refusals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    lines = ["?", "? g3 b2", "7000", "build g1 Nowhere", '{"draw": "maybe"}', "homeworld g3 b2 y3 Home", "q"]
    export = tmp_path / "stopped.ndjson"
    code, out, _ = play(
        capsys, monkeypatch, lines, "--seat", "you", "--seat", "builtin:random", "--export", str(export)
    )
    assert code == 1 and "stopped unfinished: stopped at your request" in out
    assert "more: ? again" in out and "homeworld g3 b2" in out
    assert "pick a number from 1 to" in out and out.count("not accepted:") == 2
    assert "seat 0 (you): homeworld g3 b2 y3 Home" in out
    assert export.exists() and verified(capsys, export).startswith("OK:")


def test_the_input_ending_stops_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    export = tmp_path / "ended.ndjson"
    code, out, _ = play(capsys, monkeypatch, [], "--export", str(export))
    assert code == 1 and "the input ended" in out and export.exists()


def test_planet_unknown_between_built_in_bots_exports_a_game_that_verifies(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    export = tmp_path / "planet-unknown.ndjson"
    code, out, _ = play(
        capsys,
        monkeypatch,
        [],
        "--game",
        "planet-unknown",
        "--seat",
        "builtin:random",
        "--seat",
        "builtin:random",
        "--seed",
        STRONG_SEED,
        "--export",
        str(export),
    )
    assert code == 0, out[-3000:]
    assert "Round 1" in out and "seat 1 (builtin:random): " in out and "Game over (score)" in out
    assert "> " not in out
    result = verified(capsys, export)
    assert result.startswith("OK:") and "seed verified" in result


@pytest.fixture
def webhook_bot() -> Iterator[tuple[str, list[dict[str, object]]]]:
    """A webhook bot on this machine that checks each turn request's signature and answers the first legal
    move that is not a pass (a homeworld when the request has too many to list); yields its URL and the turn
    requests it was sent."""
    received: list[dict[str, object]] = []
    verifier = Webhook(SECRET)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["content-length"]))
            verifier.verify(body, dict(self.headers.items()))
            turn = json.loads(body)
            received.append(turn)
            moves = [m for m in turn["legal_moves"] or ["homeworld g3 b2 y3 Webhook"] if m != "pass"]
            answer = json.dumps({"move": moves[0]}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/turn", received
    finally:
        server.shutdown()
        server.server_close()


def test_a_webhook_bot_is_sent_its_turns_signed(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    webhook_bot: tuple[str, list[dict[str, object]]],
) -> None:
    url, received = webhook_bot
    export = tmp_path / "webhook.ndjson"
    code, out, _ = play(
        capsys,
        monkeypatch,
        [],
        "--seat",
        "builtin:greedy:50",
        "--seat",
        url,
        "--webhook-secret",
        SECRET,
        "--option",
        "move_deadline_s=20",
        "--export",
        str(export),
    )
    assert code == 0, out[-3000:]
    assert received and all(turn["seat"] == 1 for turn in received)
    assert f"seat 1 ({url}): homeworld" in out
    assert verified(capsys, export).startswith("OK:")


def test_a_webhook_bot_that_is_not_there_stops_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from events.embedded import free_port

    monkeypatch.setattr("workers.webhooks.backoff", lambda attempt: 0.01)
    url = f"http://127.0.0.1:{free_port()}/turn"
    export = tmp_path / "gone.ndjson"
    code, out, _ = play(
        capsys,
        monkeypatch,
        [],
        "--seat",
        url,
        "--seat",
        "you",
        "--option",
        "move_deadline_s=1",
        "--export",
        str(export),
    )
    assert code == 1 and "attempt 1: ConnectionError" in out and "gave_up" in out, out[-2000:]
