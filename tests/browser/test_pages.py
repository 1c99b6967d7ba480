"""The web client in Debian's headless Chromium, against the real API over HTTP and a real Celery worker.

A person opens the lobby, creates games against the built-in bots, plays them by clicking, scrubs the replay
and is told the rules' reason for an illegal click. Each test saves screenshots under its ``tmp_path`` and
prints their paths (``pytest -s``); the load times measured in the browser are printed too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.conftest import Console, Network, Shots, api
from tests.conftest import Worker, wait_for

MISSING = "the playwright package is missing: .venv/bin/python -m pip install -e '.[test]'"
expect = pytest.importorskip("playwright.sync_api", reason=MISSING).expect

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page, Route

LOAD_BOUND_MS = 3000.0
"""The bound asserted on a page's load: the issue asks for under 1 s; this leaves room for a busy CI machine."""


def load_timing(page: Page) -> dict[str, float]:
    """The navigation's timings in ms from its start: DOM ready and the ``load`` event's end."""
    page.wait_for_load_state("load")
    timing: dict[str, float] = page.evaluate(
        """() => {
            const nav = performance.getEntriesByType('navigation')[0];
            return {dom: nav.domContentLoadedEventEnd, load: nav.loadEventEnd || performance.now()};
        }"""
    )
    return timing


def report_load(name: str, timing: dict[str, float]) -> None:
    figures = ", ".join(f"{key} {value:.0f} ms" for key, value in timing.items())
    print(f"\n[load] {name}: {figures}")
    assert timing["load"] < LOAD_BOUND_MS, f"{name} took {timing['load']:.0f} ms to load"


def create_from_lobby(page: Page, game: str, bots: list[str], name: str = "Ada") -> str:
    """Fill the lobby's form as a person would (``game`` against ``bots``), submit it, return the new game's id."""
    page.goto("/")
    page.locator(f'[data-testid="create-game"] option[value="{game}"]').wait_for(state="attached")
    page.get_by_test_id("create-game").select_option(game)
    page.get_by_test_id("create-seat-name").fill(name)
    rows = page.get_by_test_id("create-opponent")
    while rows.count() < len(bots):
        page.get_by_test_id("create-add-opponent").click()
    while rows.count() > len(bots):
        rows.last.get_by_test_id("create-remove-opponent").click()
    for row, bot in enumerate(bots):
        rows.nth(row).get_by_test_id("create-opponent-bot").select_option(bot)
    with page.expect_navigation(url=re.compile(r"/games/[^/?#]+$")):
        page.get_by_test_id("create-submit").click()
    return page.url.rsplit("/", 1)[1]


def seat_token(page: Page, game_id: str, seat: int) -> str:
    """The seat's token as the lobby kept it in this browser (localStorage)."""
    held: dict[str, Any] = page.evaluate("(id) => JSON.parse(localStorage.getItem(`orrery.game.${id}`))", game_id)
    token: str = held["seats"][str(seat)]
    return token


class TestLobby:
    def test_the_lobby_loads(self, page: Page, shots: Shots, console: Console) -> None:
        response = page.goto("/")
        assert response is not None and response.status == 200
        timing = load_timing(page)
        report_load("lobby", timing)
        games = page.get_by_test_id("create-game")
        expect(games.locator('option[value="homeworlds"]')).to_be_attached()
        expect(games.locator('option[value="planet-unknown"]')).to_be_attached()
        shots.take(page, "lobby")
        assert not console.uncaught(), console.errors

    def test_a_person_creates_a_game_from_the_lobby(self, page: Page, live_server: str, shots: Shots) -> None:
        game_id = create_from_lobby(page, "homeworlds", ["random"], name="Ada")
        token = seat_token(page, game_id, 0)
        game = api(live_server, "GET", f"/v1/games/{game_id}", token)
        assert game["game"] == "homeworlds"
        assert game["seats"][0]["name"] == "Ada"
        assert game["seats"][1]["bot"]["builtin"] == "random"
        shots.take(page, "created-game")


def board_shown_ms(page: Page) -> float:
    """Ms from the navigation's start until the board's picture (or its text stand-in) is drawn."""
    handle = page.wait_for_function(
        """() => {
            const img = document.querySelector('[data-testid="board-image"]');
            if (img && img.complete && img.naturalWidth > 0) return performance.now();
            return document.querySelector('[data-testid="board-text"]') ? performance.now() : null;
        }""",
        polling="raf",
    )
    shown: float = handle.json_value()
    return shown


def board_picture(page: Page, network: Network) -> bytes:
    """The board as drawn on screen once the page has settled (PNG bytes of its element)."""
    network.settle()
    return page.get_by_test_id("board").screenshot()


def open_game(page: Page, game_id: str, name: str) -> dict[str, float]:
    """Open a game's page, wait for its board, print and bound its load times."""
    response = page.goto(f"/games/{game_id}")
    assert response is not None and response.status == 200
    timing = load_timing(page) | {"board": board_shown_ms(page)}
    report_load(name, timing)
    assert timing["board"] < LOAD_BOUND_MS, f"{name}: the board took {timing['board']:.0f} ms to show"
    return timing


def bot_game(live_server: str, game: str, bots: list[str], at_least: int) -> str:
    """A game between built-in bots, created over the API, once the worker has played it to ``at_least`` versions."""
    seats = [{"name": f"{bot} {i}", "bot": {"builtin": bot, "think_ms": 50}} for i, bot in enumerate(bots)]
    created = api(live_server, "POST", "/v1/games", body={"game": game, "seats": seats})
    wait_for(lambda: api(live_server, "GET", f"/v1/games/{created['id']}")["version"] >= at_least, timeout=30)
    game_id: str = created["id"]
    return game_id


class TestReplay:
    def test_the_replay_slider_changes_the_board(
        self, page: Page, live_server: str, worker: Worker, network: Network, shots: Shots, console: Console
    ) -> None:
        game_id = bot_game(live_server, "homeworlds", ["random", "random"], at_least=8)
        open_game(page, game_id, "game page (spectator)")
        slider = page.get_by_test_id("replay-slider")
        version = page.get_by_test_id("replay-version")
        expect(slider).not_to_have_attribute("max", "1")
        page.get_by_test_id("replay-live").click()  # stop following the bots, so the last position holds still
        expect(version).to_contain_text(" of ")
        last = board_picture(page, network)
        shots.take(page, "replay-last")

        with page.expect_response(lambda r: r.url.endswith("/board.svg?at=1")) as at_start:
            slider.fill("1")
        expect(version).to_contain_text("version 1 of")
        first = board_picture(page, network)
        assert first != last, "moving the replay slider to the start did not change the board"
        shots.take(page, "replay-slider-at-1")

        page.get_by_test_id("replay-forward").click()
        expect(version).not_to_contain_text("version 1 of")
        stepped = board_picture(page, network)
        assert stepped != first, "the step button did not change the board"
        shots.take(page, "replay-stepped")

        with page.expect_response(lambda r: r.url.endswith("/board.svg?at=1")) as back:
            page.get_by_test_id("replay-back").click()
        expect(version).to_contain_text("version 1 of")
        assert back.value.body() == at_start.value.body(), "stepping back did not draw the first position again"
        assert board_picture(page, network) != stepped
        assert not console.uncaught(), console.errors


def my_homeworlds_turn(page: Page, moves: int) -> None:
    """Wait until the move list has ``moves`` moves and a fresh play panel offers this seat its turn."""
    expect(page.get_by_test_id("move")).to_have_count(moves, timeout=30_000)
    expect(page.get_by_test_id("turn-indicator")).to_contain_text("your turn")
    expect(page.get_by_test_id("hw-options")).to_be_visible()
    expect(page.get_by_test_id("hw-chosen").locator(".chosen-action")).to_have_count(0)  # not the panel just sent


def click_and_send(page: Page, button: Locator) -> dict[str, Any]:
    """Click ``button``, which sends a move; return the API's answer (status, body) and the move the page sent."""
    with page.expect_response(lambda r: r.url.endswith("/moves") and r.request.method == "POST") as answer:
        button.click()
    response = answer.value
    sent = response.request.post_data_json or {}
    return {"status": response.status, "body": response.json(), "move": sent.get("move")}


def offered_actions(page: Page) -> list[str]:
    """The texts of the next actions the Homeworlds panel offers."""
    options = page.get_by_test_id("hw-option")
    found: list[str] = options.evaluate_all("(buttons) => buttons.map((b) => b.dataset.action)")
    return found


def choose_action(page: Page, prefix: str) -> bool:
    """Click the first offered next action that starts with ``prefix`` (unless a click already chose one)."""
    if page.get_by_test_id("hw-chosen").locator(".chosen-action").count():
        return True
    chosen = next((a for a in offered_actions(page) if a.startswith(prefix)), None)
    if chosen is None:
        return False
    page.get_by_test_id("hw-option").and_(page.locator(f'[data-action="{chosen}"]')).click()
    return True


def play_homeworlds_turn(page: Page, home: str, seat: int, plan: str) -> str:
    """Build one whole turn by clicking, preview it, send it; return its text.

    ``plan`` "trade": click one of our small ships, then a trade; otherwise (or when no trade is offered) click
    our home star, then a build. Both are whole turns on their own, and neither loses the game.
    """
    done = False
    if plan == "trade":
        page.locator(f'[data-testid="hw-ship"][data-owner="{seat}"][data-piece$="1"].clickable').first.click()
        done = choose_action(page, "trade ")
        if not done:
            page.get_by_test_id("hw-reset").click()
    if not done:
        page.locator(f'[data-testid="hw-star"][data-system="{home}"].clickable').first.click()
        assert choose_action(page, "build "), f"no build offered at {home}: {offered_actions(page)}"
    preview = page.get_by_test_id("hw-preview")
    expect(preview).to_be_visible()
    turn = (preview.text_content() or "").removeprefix("Turn: ").strip()
    sent = click_and_send(page, page.get_by_test_id("send-move"))
    assert sent["status"] == 201, sent
    assert sent["move"] == turn, "the page sent another turn than the one it previewed"
    return turn


class TestHomeworlds:
    def test_a_person_sets_up_and_plays_three_turns_against_random_by_clicking(
        self, page: Page, live_server: str, worker: Worker, network: Network, shots: Shots, console: Console
    ) -> None:
        game_id = create_from_lobby(page, "homeworlds", ["random"], name="Ada")
        open_game(page, game_id, "game page (seat, Homeworlds)")
        my_homeworlds_turn(page, moves=0)
        shots.take(page, "homeworlds-setup", network)

        # A typed turn that the rules refuse: the page shows their reason and the game does not move.
        page.get_by_test_id("hw-text").fill("build g1 Nowhere")
        refused = click_and_send(page, page.get_by_test_id("hw-send-text"))
        assert refused["status"] == 422, refused
        expect(page.get_by_test_id("error")).to_have_text(refused["body"]["error"]["message"])
        expect(page.get_by_test_id("move")).to_have_count(0)

        # Stars r1 and b2 and a large green ship: green builds every turn, and blue trades.
        for piece in ("r1", "b2", "g3"):
            page.locator(f'[data-testid="hw-bank-piece"][data-piece="{piece}"]').click()
        if page.get_by_test_id("hw-chosen").locator(".chosen-action").count() == 0:
            wanted = (["homeworld", "r1", "b2", "g3"], ["homeworld", "b2", "r1", "g3"])
            setups = [a for a in offered_actions(page) if a.split()[:4] in wanted]
            assert setups, offered_actions(page)
            page.get_by_test_id("hw-option").and_(page.locator(f'[data-action="{setups[0]}"]')).click()
        preview = page.get_by_test_id("hw-preview")
        expect(preview).to_contain_text("homeworld")
        home = (preview.text_content() or "").split()[-1]
        setup = click_and_send(page, page.get_by_test_id("send-move"))
        assert setup["status"] == 201, setup

        turns = []
        for number, plan in enumerate(("build", "trade", "build"), start=1):
            my_homeworlds_turn(page, moves=2 * number)  # ours and the bot's answer
            turns.append(play_homeworlds_turn(page, home, 0, plan))
        my_homeworlds_turn(page, moves=8)
        shots.take(page, "homeworlds-after-three-turns", network)
        print(f"\n[homeworlds] set-up {setup['move']!r}, then {turns}")

        token = seat_token(page, game_id, 0)
        events = api(live_server, "GET", f"/v1/games/{game_id}/events?limit=1000", token)["events"]
        mine = [e["payload"]["move"] for e in events if e["type"] == "MoveMade" and e["seat"] == 0]
        assert mine == [setup["move"], *turns]
        texts = page.get_by_test_id("move-text").all_text_contents()
        assert [texts[i] for i in (0, 2, 4, 6)] == mine
        assert not console.uncaught(), console.errors


def planet_unknown_moves(live_server: str, game_id: str, token: str) -> list[dict[str, Any]]:
    """This seat's legal moves, as the API lists them."""
    legal = api(live_server, "GET", f"/v1/games/{game_id}/legal-moves?limit=20000", token)
    moves: list[dict[str, Any]] = legal["moves"]
    return moves


def bot_done(page: Page, live_server: str, worker: Worker, game_id: str) -> None:
    """Wait until only our seat is to act (the bot has played its part of the round), so no new event redraws
    the play panel while we click. The panel then offers our station.

    If the page does not get there, the failure says whether the bot moved (the API's version and seats to
    act) and ends with the worker's log, so that a page that missed an event and a bot that never moved are
    told apart."""
    try:
        expect(page.get_by_test_id("turn-indicator")).to_have_attribute("data-to-act", "0", timeout=30_000)
    except AssertionError as waited:
        game = api(live_server, "GET", f"/v1/games/{game_id}")
        raise AssertionError(
            f"{waited}\nthe API has game {game_id} at version {game['version']}, to act {game['to_act']}"
            f"\nthe worker's log ends with:\n{worker.log.read_text(errors='replace')[-6000:]}"
        ) from None
    expect(page.get_by_test_id("pu-station")).to_be_visible()


def pick_tile(page: Page, tile: int) -> None:
    """Click ``tile`` in the station; it shows as chosen."""
    button = page.locator(f'[data-testid="pu-station-tile"][data-tile="{tile}"]')
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")


class TestPlanetUnknown:
    def test_a_person_places_a_rotated_tile_and_answers_its_choices(
        self, page: Page, live_server: str, worker: Worker, network: Network, shots: Shots, console: Console
    ) -> None:
        game_id = create_from_lobby(page, "planet-unknown", ["random"], name="Ada")
        open_game(page, game_id, "game page (seat, Planet Unknown)")
        bot_done(page, live_server, worker, game_id)
        shots.take(page, "planet-unknown-station", network)

        # A tile whose quarter turn is a placement of its own (not the same picture as unturned).
        token = seat_token(page, game_id, 0)
        turned = [m for m in planet_unknown_moves(live_server, game_id, token) if m.get("action") == "place"]
        turned = [m for m in turned if m["rotation"] == 90 and not m["flip"]]
        assert turned, "no tile on offer can be placed turned a quarter"
        tile = turned[0]["tile"]
        pick_tile(page, tile)
        page.get_by_test_id("pu-rotate").click()
        expect(page.get_by_test_id("pu-orientation")).to_contain_text("90°")

        start = page.locator('[data-testid="pu-square"].can-start').first
        start.hover()
        expect(start).to_have_class(re.compile(r"\bfit\b"))
        expect(page.locator('[data-testid="pu-square"].nofit')).to_have_count(0)
        assert page.locator('[data-testid="pu-square"].fit').count() >= 2, "the hover shows no tile outline"
        shots.take(page, "planet-unknown-hover", network)
        placed = click_and_send(page, start)
        assert placed["status"] == 201, placed
        assert placed["move"]["tile"] == tile and placed["move"]["rotation"] == 90, placed["move"]

        answered = []
        for _ in range(12):
            choice = page.get_by_test_id("pu-choice")
            expect(choice.first).to_be_enabled()  # a fresh panel: the one just sent has its buttons disabled
            moves = [m or "" for m in choice.evaluate_all("(buttons) => buttons.map((b) => b.dataset.move)")]
            pick = next((m for m in moves if m != "confirm"), moves[0])
            sent = click_and_send(page, choice.and_(page.locator(f'[data-move="{pick}"]')))
            assert sent["status"] == 201, sent
            answered.append(pick)
            if pick == "confirm":
                break
        assert answered and answered[-1] == "confirm", answered
        print(f"\n[planet-unknown] placed {placed['move']}, then answered {answered}")
        expect(page.get_by_test_id("pu-choice").and_(page.locator('[data-move="confirm"]'))).to_have_count(0)
        shots.take(page, "planet-unknown-after-choices", network)

        events = api(live_server, "GET", f"/v1/games/{game_id}/events?limit=1000", token)["events"]
        mine = [e["payload"]["move"] for e in events if e["type"] == "MoveMade" and e["seat"] == 0]
        assert mine[0] == placed["move"] and len(mine) == 1 + len(answered), mine
        assert not console.uncaught(), console.errors


class TestIllegal:
    def test_an_illegal_click_shows_the_rules_reason(
        self, page: Page, live_server: str, worker: Worker, network: Network, shots: Shots, console: Console
    ) -> None:
        game_id = create_from_lobby(page, "planet-unknown", ["random"], name="Ada")
        bot_done(page, live_server, worker, game_id)
        tile = int(page.get_by_test_id("pu-station-tile").first.get_attribute("data-tile") or "0")
        pick_tile(page, tile)

        # A square where the whole tile lies on the planet's frame but is not a legal placement.
        error = page.get_by_test_id("error")
        squares = page.locator('[data-testid="pu-square"]:not(.can-start)')
        names = squares.evaluate_all("(cells) => cells.map((c) => c.dataset.square)")
        middle_first = sorted(names, key=lambda n: abs(ord(n[0]) - ord("f")) + abs(int(n[1:]) - 6))
        for name in middle_first:
            square = page.locator(f'[data-testid="pu-square"][data-square="{name}"]')
            square.hover()
            if "nofit" in (square.get_attribute("class") or ""):
                break
        else:
            pytest.fail("no square shows that the tile does not fit there")
        shots.take(page, "illegal-hover", network)
        refused = click_and_send(page, square)
        assert refused["status"] == 422, refused
        reason = refused["body"]["error"]["message"]
        expect(error).to_be_visible()
        expect(error).to_have_text(reason)
        print(f"\n[illegal] {refused['move']} -> {reason!r}")
        shots.take(page, "illegal-reason", network)

        events = api(live_server, "GET", f"/v1/games/{game_id}/events?limit=1000", seat_token(page, game_id, 0))
        assert not [e for e in events["events"] if e["type"] == "MoveMade" and e["seat"] == 0]
        assert not console.uncaught(), console.errors


class TestLoading:
    def test_a_move_made_while_the_page_loads_shows(
        self, page: Page, live_server: str, network: Network, shots: Shots, console: Console
    ) -> None:
        """The page reads the game, then its events, then follows the stream after the newest event. A move
        that lands between the first two reads is in the events but not in the game the page read: the
        page must still show the turn after it (it showed the old turn until the next move)."""
        seats = [{"name": "Ada"}, {"name": "Bob"}]
        created = api(live_server, "POST", "/v1/games", body={"game": "homeworlds", "seats": seats})
        game_id, ada = created["id"], created["seats"][0]["token"]
        moved: list[int] = []

        def move_before_the_events(route: Route) -> None:
            if not moved:
                sent = api(live_server, "POST", f"/v1/games/{game_id}/moves", ada, {"move": "homeworld r1 b2 g3"})
                moved.append(sent["version"])
            route.continue_()

        page.route(re.compile(r"/v1/games/[^/]+/events\?after=0&"), move_before_the_events)
        open_game(page, game_id, "game page (spectator, a move during the load)")
        assert moved, "the page did not read the events"
        expect(page.get_by_test_id("turn-indicator")).to_have_attribute("data-to-act", "1")
        expect(page.get_by_test_id("move")).to_have_count(1)
        shots.take(page, "loaded-during-a-move", network)
        assert not console.uncaught(), console.errors
