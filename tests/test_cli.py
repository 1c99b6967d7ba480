"""The ``orrery`` command line: help texts with defaults, ``--version``, and one line (no traceback) for
every user error, with exit code 2."""

from __future__ import annotations

import http.server
import importlib.metadata
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import app
from events.embedded import free_port
from tests.conftest import ROOT

STRONG_SEED = "0123456789abcdef0123456789abcdef"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``app.main(argv)`` in this process: its exit code (argparse's too), standard output and error."""
    try:
        code = app.main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def refused(err: str) -> bool:
    """One line on standard error, and no traceback."""
    return "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_version_comes_from_the_package_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"orrery {importlib.metadata.version('orrery')}"


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        ((), ("up", "play", "arena", "verify", "transcripts")),
        (("up",), ("(default: 127.0.0.1)", "(default: var)")),
        (("play",), ("(default: homeworlds)", "(default: 2000)", "builtin:greedy", "(default: a random one)")),
        (("arena",), ("(default: 100)", "(default: 200)", "(default: arena)")),
        (("verify",), ("standard input",)),
        (("transcripts", "check"), ("--game", "folders")),
    ],
)
def test_every_command_has_help_with_its_defaults(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], shown: tuple[str, ...]
) -> None:
    code, out, _ = run(capsys, *argv, "--help")
    assert code == 0
    text = " ".join(out.split())
    for part in shown:
        assert part in text, part
    assert "(default: None)" not in text


@pytest.mark.parametrize("flag", ["-n", "--think-ms"])
@pytest.mark.parametrize("value", ["0", "-3", "two"])
def test_arena_refuses_counts_and_times_that_are_not_positive(
    capsys: pytest.CaptureFixture[str], flag: str, value: str
) -> None:
    code, _, err = run(capsys, "arena", "random", "random", flag, value)
    assert code == 2 and "Traceback" not in err and flag.lstrip("-")[:1] in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("arena", "--game", "chess", "random", "random"), "no game 'chess'"),
        (("arena", "random", "nobody"), "no bot 'nobody'"),
        (("transcripts", "check", "--game", "chess", "x"), "no transcript checker"),
        (("transcripts", "check", "--game", "homeworlds", "/nonexistent/game.txt"), "no such file"),
        (("play", "--game", "chess"), "no game 'chess'"),
        (("play", "--seat", "you", "--seat", "builtin:nobody"), "no built-in bot 'nobody'"),
        (("play", "--seat", "you"), "2 to 2 seats"),
        (("play", "--option", "no_such_option=1"), "unknown option"),
        (("play", "--game", "planet-unknown", "--seat", "builtin:random", "--seed", "abc"), "128 bits"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], says: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and refused(err) and says in err, err


@pytest.mark.parametrize("seat", ["robot", "builtin:", "builtin:random:0", "builtin:random:fast", "ftp://x"])
def test_play_refuses_a_malformed_seat(capsys: pytest.CaptureFixture[str], seat: str) -> None:
    code, _, err = run(capsys, "play", "--seat", seat)
    assert code == 2 and "--seat" in err and "Traceback" not in err


def test_play_refuses_an_option_without_a_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--option", "events")
    assert code == 2 and "KEY=VALUE" in err


class TestVerifyRefuses:
    def check(self, capsys: pytest.CaptureFixture[str], path: Path | str, says: str) -> None:
        code, out, err = run(capsys, "verify", str(path))
        assert code == 2 and refused(err) and says in err, err
        assert out == ""

    def test_a_missing_file(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.check(capsys, "/nonexistent", "No such file")

    def test_a_folder(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        self.check(capsys, tmp_path, "cannot read")

    @pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads any file")
    def test_an_unreadable_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "locked.ndjson"
        path.write_text("{}\n")
        path.chmod(0)
        self.check(capsys, path, "Permission denied")

    def test_an_empty_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "empty.ndjson"
        path.write_text("\n")
        self.check(capsys, path, "empty")

    def test_bad_json(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "bad.ndjson"
        path.write_text("{not json\n")
        self.check(capsys, path, "not JSON")

    def test_json_that_is_no_export(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "list.ndjson"
        path.write_text("[1, 2]\n")
        self.check(capsys, path, "not an Orrery export")

    def test_a_binary_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "binary.ndjson"
        path.write_bytes(b"\xff\xfe\x00\x01")
        self.check(capsys, path, "UTF-8")


def test_the_installed_command_prints_no_traceback() -> None:
    orrery = Path(sys.executable).parent / "orrery"
    env = {k: v for k, v in os.environ.items() if k != "ORRERY_GAMES"}
    result = subprocess.run(
        [str(orrery), "verify", "/nonexistent"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
    )
    assert result.returncode == 2 and refused(result.stderr), result.stderr


def test_gunicorn_logs_one_line_per_request_and_keeps_its_other_flags() -> None:
    command = app.gunicorn_command("127.0.0.1", 8000)
    assert command[command.index("--access-logfile") + 1] == "-"
    assert command[command.index("--access-logformat") + 1] == app.ACCESS_LOG_FORMAT
    for flag in ("--bind", "--worker-class", "--worker-connections", "--limit-request-line", "--config"):
        assert flag in command


def test_orrery_up_runs_celery_at_warning() -> None:
    commands = app.worker_commands(app.Settings.from_env(), "1")
    assert all("--loglevel=WARNING" in command for command in commands.values())
    assert "--loglevel=INFO" in app.worker_command(["q"], "test@%h")


@pytest.fixture
def readyz() -> Iterator[tuple[str, dict[str, str]]]:
    """A stand-in API whose ``/readyz`` answers with the returned dict."""
    body = {"redis": "ok", "worker": "none"}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", body
    finally:
        server.shutdown()
        server.server_close()


def test_orrery_up_announces_the_api_once_readyz_says_ready(readyz: tuple[str, dict[str, str]]) -> None:
    url, body = readyz
    assert app.readiness(url) == "worker none"
    body["worker"] = "ok"
    assert app.readiness(url) is None
    assert app.readiness(f"http://127.0.0.1:{free_port()}") == "the API does not answer yet"
