"""Browser fixtures: Debian's headless Chromium, driven by Playwright, against the real server.

The browser is Debian's ``chromium`` package (``.ci/run`` installs it); Playwright's Python package only
brings its driver, never a browser of its own. Without Chromium, or without the ``playwright`` package, the
tests skip with a reason that says how to install what is missing. When ``ORRERY_REQUIRE_BROWSER`` is set
(``.ci/run`` sets it whenever Chromium is installed) a browser that cannot start fails the tests instead.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

INSTALL_HINT = "apt-get install chromium chromium-driver"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LAUNCH_TIMEOUT_MS = 60_000
TIMEOUT_MS = 15_000
"""How long any one wait on the page may take: generous for a busy 2-core machine, short next to the suite."""


def chromium_path() -> str | None:
    """Debian's Chromium: ``ORRERY_CHROMIUM`` if set, else ``/usr/bin/chromium``, else ``chromium`` on the PATH."""
    named = os.environ.get("ORRERY_CHROMIUM")
    if named:
        return named if os.access(named, os.X_OK) else None
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


def _unavailable(reason: str) -> NoReturn:
    """Skip (or fail, when the browser is required) with ``reason``."""
    if os.environ.get("ORRERY_REQUIRE_BROWSER"):
        pytest.fail(f"ORRERY_REQUIRE_BROWSER is set but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the module."""
    path = chromium_path()
    if path is None:
        _unavailable(f"Debian's Chromium is not installed (as root: apt-get update && {INSTALL_HINT})")
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        _unavailable("the playwright package is missing: .venv/bin/python -m pip install -e '.[test]'")
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(
                executable_path=path, headless=True, args=CHROMIUM_ARGS, timeout=LAUNCH_TIMEOUT_MS
            )
        except Error as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
            _unavailable(f"Chromium at {path} did not start ({first}); reinstall it: {INSTALL_HINT}")
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Shots:
    """Screenshots taken by one test: each saved under its ``tmp_path``, printed and attached to its report."""

    folder: Path
    request: pytest.FixtureRequest
    taken: list[Path] = field(default_factory=list)

    def take(self, page: Page, name: str, network: Network | None = None) -> Path:
        """Save a screenshot of the whole page (once ``network`` has settled, if given)."""
        if network is not None:
            network.settle()
        path = self.folder / f"{len(self.taken) + 1:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        self.taken.append(path)
        print(f"\n[screenshot] {name}: {path}")
        self.request.node.user_properties.append((f"screenshot {name}", str(path)))
        return path


@pytest.fixture
def shots(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Shots]:
    taken = Shots(tmp_path, request)
    yield taken
    if taken.taken:
        request.node.add_report_section("call", "screenshots", "\n".join(str(p) for p in taken.taken))


@dataclass
class Console:
    """What the page wrote to its console as errors, and the exceptions it did not catch."""

    errors: list[str] = field(default_factory=list)

    def attach(self, page: Page) -> None:
        page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def uncaught(self) -> list[str]:
        return [e for e in self.errors if e.startswith("uncaught:")]


@pytest.fixture
def console() -> Console:
    return Console()


@dataclass
class Network:
    """The page's requests still in flight, less its live streams (which stay open by design)."""

    pending: set[Any] = field(default_factory=set)
    page: Page | None = None

    def attach(self, page: Page) -> None:
        self.page = page
        page.on("request", lambda r: None if "/stream" in r.url else self.pending.add(r))
        page.on("requestfinished", lambda r: self.pending.discard(r))
        page.on("requestfailed", lambda r: self.pending.discard(r))

    def settle(self, timeout_ms: float = TIMEOUT_MS) -> None:
        """Wait until no request is in flight and the board's picture (if any) is decoded: the page is drawn."""
        assert self.page is not None
        deadline = time.monotonic() + timeout_ms / 1000
        while self.pending:
            assert time.monotonic() < deadline, f"requests still in flight: {[r.url for r in self.pending]}"
            self.page.wait_for_timeout(20)  # lets Playwright deliver the requests' events
        self.page.wait_for_function(
            """() => [...document.querySelectorAll('[data-testid="board-image"]')]
                .every((img) => img.complete && img.naturalWidth > 0)""",
            polling="raf",
            timeout=timeout_ms,
        )


@pytest.fixture
def network() -> Network:
    return Network()


@pytest.fixture
def page(browser: Browser, live_server: str, console: Console, network: Network, shots: Shots) -> Iterator[Page]:
    """A fresh page (its own context: no shared storage) whose relative URLs go to ``live_server``."""
    context = browser.new_context(base_url=live_server, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    console.attach(opened)
    network.attach(opened)
    try:
        yield opened
    finally:
        # The page as the test left it (what a failure looked like); a courtesy, never the failure itself.
        with contextlib.suppress(Exception):
            shots.take(opened, "end")
        context.close()


def api(live_server: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    """One JSON call on the API (setting up what a test does not drive through the page)."""
    import requests

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = requests.request(method, live_server + path, json=body, headers=headers, timeout=10)
    response.raise_for_status()
    return response.json()
