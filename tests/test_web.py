"""The web client's pages and assets, without a browser: served fast, with the right types, self-contained,
and never putting a token in a URL."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from web import STATIC

ASSETS = sorted(p for p in STATIC.iterdir() if p.is_file())
SCRIPTS = [p for p in ASSETS if p.suffix == ".js"]
TYPES = {".html": "text/html", ".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}
W3_NAMESPACES = ("http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink")


def get_quickly(client: Any, path: str) -> Any:
    started = time.perf_counter()
    response = client.get(path)
    assert time.perf_counter() - started < 1.0, f"{path} took too long"
    return response


class TestPages:
    @pytest.mark.parametrize("path", ["/", "/games/0123456789abcdef", "/games/no-such-game"])
    def test_html_fast(self, client: Any, path: str) -> None:
        response = get_quickly(client, path)
        assert response.status_code == 200
        assert response.mimetype == "text/html"
        assert "<!doctype html>" in response.get_data(as_text=True).lower()
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]

    def test_each_page_loads_its_module(self, client: Any) -> None:
        assert 'src="/static/lobby.js"' in client.get("/").get_data(as_text=True)
        assert 'src="/static/game.js"' in client.get("/games/abc").get_data(as_text=True)

    def test_pages_not_in_openapi(self, client: Any) -> None:
        paths = client.get("/openapi.json").json["paths"]
        assert not [p for p in paths if not p.startswith(("/v1/", "/healthz", "/readyz"))]


class TestAssets:
    @pytest.mark.parametrize("asset", ASSETS, ids=lambda p: p.name)
    def test_served_with_type(self, client: Any, asset: Path) -> None:
        response = get_quickly(client, f"/static/{asset.name}")
        assert response.status_code == 200
        assert response.mimetype == TYPES[asset.suffix]
        assert response.data == asset.read_bytes()

    def test_missing_asset(self, client: Any) -> None:
        assert client.get("/static/nothing.js").status_code == 404

    @pytest.mark.parametrize("asset", ASSETS, ids=lambda p: p.name)
    def test_no_external_urls(self, asset: Path) -> None:
        text = asset.read_text(encoding="utf-8")
        for namespace in W3_NAMESPACES:
            text = text.replace(namespace, "")
        assert not re.findall(r"https?://[^\s'\"`)]+", text), "assets must not fetch anything from elsewhere"
        assert "//cdn" not in text and "@import" not in text

    def test_every_module_import_is_local(self) -> None:
        for script in SCRIPTS:
            for target in re.findall(r"""(?:from|import)\s*\(?\s*['"]([^'"]+)['"]""", script.read_text()):
                assert target.startswith("./") and (STATIC / target[2:]).is_file(), f"{script.name}: {target}"


class TestTokens:
    """A token travels in the Authorization header only: no URL the scripts build carries it."""

    PATHS = re.compile(r"""[`'"]((?:/|\?)[^`'"\n]*)""")
    INTERPOLATIONS = re.compile(r"\$\{([^}]*)\}")

    def test_no_token_in_urls(self) -> None:
        for script in SCRIPTS:
            text = script.read_text()
            for literal in self.PATHS.findall(text):
                assert not re.search(r"token|creator", literal, re.IGNORECASE), f"{script.name}: {literal}"
            for line in text.splitlines():
                for expression in self.INTERPOLATIONS.findall(line):
                    if re.search(r"token", expression, re.IGNORECASE):
                        assert "`Bearer ${" + expression + "}`" in line, f"{script.name}: {line.strip()}"
            assert not re.search(r"(searchParams|URLSearchParams)[^;]*token", text, re.IGNORECASE)

    def test_tokens_go_in_the_authorization_header(self) -> None:
        api = (STATIC / "api.js").read_text()
        sse = (STATIC / "sse.js").read_text()
        assert "headers.Authorization = `Bearer ${token}`" in api
        assert "headers.Authorization = `Bearer ${token}`" in sse
        assert "EventSource" not in sse

    def test_tokens_kept_in_local_storage(self) -> None:
        assert "localStorage.setItem" in (STATIC / "tokens.js").read_text()


class TestTestIds:
    """The ids that the browser tests (tests/browser/) and web/README.md rely on."""

    @pytest.mark.parametrize(
        "testid",
        [
            "create-game",
            "create-seat-name",
            "create-opponents",
            "create-add-opponent",
            "create-options",
            "create-submit",
            "error",
            "filter-game",
            "filter-status",
            "games-list",
        ],
    )
    def test_lobby(self, testid: str) -> None:
        assert f'data-testid="{testid}"' in (STATIC / "lobby.html").read_text()

    @pytest.mark.parametrize(
        "testid",
        [
            "board",
            "turn-indicator",
            "move-list",
            "replay-slider",
            "replay-back",
            "replay-forward",
            "replay-start",
            "replay-end",
            "replay-live",
            "fork-button",
            "result",
            "verify-link",
            "error",
            "play",
            "view-as",
        ],
    )
    def test_game(self, testid: str) -> None:
        assert f'data-testid="{testid}"' in (STATIC / "game.html").read_text()

    @pytest.mark.parametrize(
        ("script", "testid"),
        [
            ("play-homeworlds.js", "hw-ship"),
            ("play-homeworlds.js", "hw-star"),
            ("play-homeworlds.js", "hw-option"),
            ("play-homeworlds.js", "hw-preview"),
            ("play-homeworlds.js", "send-move"),
            ("play-planet-unknown.js", "pu-station-tile"),
            ("play-planet-unknown.js", "pu-rotate"),
            ("play-planet-unknown.js", "pu-flip"),
            ("play-planet-unknown.js", "pu-square"),
            ("play-planet-unknown.js", "pu-choice"),
            ("game.js", "move"),
            ("lobby.js", "game-row"),
        ],
    )
    def test_scripts(self, script: str, testid: str) -> None:
        assert re.search(
            rf"""['"]?testid['"]?:\s*'{testid}'|'data-testid':\s*'{testid}'""", (STATIC / script).read_text()
        )
