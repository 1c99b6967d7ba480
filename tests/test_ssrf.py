"""Server-side request forgery through webhook bots: each test replays an attack and shows it fails.

No test connects anywhere but the loopback: an autouse guard fails any other
connection, and refused addresses are refused before a socket is opened.
Public-looking addresses appear only as results of a faked DNS lookup.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from api.live import game_events
from app import Settings, create_app, verify_export, with_webhook_allow_default
from domain import contract
from domain.contract import Role
from domain.table.record import GameCreated
from events.embedded import free_port
from events.keys import Keyspace
from events.store import RedisStore
from service.games import GameService, InvalidRequest, SeatSpec
from service.webhook_policy import LOOPBACK_ALLOW, UnsafeWebhookURL, WebhookPolicy, parse_allow
from tests.conftest import NAMESPACE, Worker, wait_for
from tests.test_bots import Scripted
from workers import guarded_http
from workers.webhooks import deliver

SSRF_NAMESPACE = f"{NAMESPACE}-ssrf"
WORKER_NAMESPACE = f"{NAMESPACE}-ssrf-worker"
LOOPBACK = WebhookPolicy(parse_allow(LOOPBACK_ALLOW))
PUBLIC_IP = "93.184.216.34"
"""What the faked DNS answers for a "public" name; the guard fails any connection to it."""

ATTACKS = [
    "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "http://10.0.0.1/",
    "http://10.255.255.53:53/",
    "http://192.168.1.1/admin",
    "http://172.16.0.1/",
    "http://[fd00::1]/",
    "http://localhost/",
    "http://localhost:6379/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://017700000001/",
    "http://127.1/",
    "http://0.0.0.0/",
    "http://127.0.0.1:6379/",
    "http://[::1]:6379/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[2002:7f00:1::]/",
    "http://[fe80::1]/",
    "http://100.64.0.1/",
    "http://224.0.0.1/",
    "http://[ff02::1]/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "https://198.18.0.1/",
]


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every TCP connection this process opens, which must all go to the loopback."""
    opened: list[tuple[str, int]] = []
    real_connect = socket.socket.connect

    def connect(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            host = str(address[0]).split("%")[0]
            if not ipaddress.ip_address(host).is_loopback:
                raise AssertionError(f"the test tried to connect to {address}")
            opened.append((host, int(address[1])))
        real_connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return opened


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Fake DNS answers for made-up names (a name mapped to [] does not resolve); other names resolve as usual."""
    answers: dict[str, list[str]] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in answers:
            return real(host, port, *args, **kwargs)
        if not answers[host]:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        out = []
        for ip in answers[host]:
            family = socket.AF_INET6 if ":" in ip else socket.AF_INET
            sockaddr = (ip, int(port or 0), 0, 0) if family == socket.AF_INET6 else (ip, int(port or 0))
            out.append((family, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", sockaddr))
        return out

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


@pytest.fixture(scope="module")
def ssrf_store(service: GameService) -> Iterator[RedisStore]:
    store = RedisStore(service.store.redis, Keyspace(SSRF_NAMESPACE))
    yield store
    for namespace in (SSRF_NAMESPACE, WORKER_NAMESPACE):
        keys = list(store.redis.scan_iter(f"{namespace}:*", count=1000))
        if keys:
            store.redis.unlink(*keys)


@pytest.fixture
def strict(ssrf_store: RedisStore) -> GameService:
    """A service with the production default: an empty allow list."""
    return GameService(ssrf_store, webhook_policy=WebhookPolicy())


@pytest.fixture(scope="module")
def strict_client(settings: Settings) -> Any:
    """The API with an empty ``ORRERY_WEBHOOK_ALLOW``, over a namespace of its own."""
    app = create_app(dataclasses.replace(settings, webhook_allow=(), namespace=SSRF_NAMESPACE))
    app.config["TESTING"] = True
    return app.test_client()


@pytest.fixture
def servers() -> Iterator[Callable[..., Scripted]]:
    started: list[Scripted] = []

    def start(statuses: list[int] | None = None, headers: dict[str, str] | None = None) -> Scripted:
        started.append(Scripted(statuses or [], headers))
        return started[-1]

    yield start
    for server in started:
        server.server.shutdown()


def webhook_turn(service: GameService, url: str) -> tuple[str, int]:
    """A game whose seat 0 is a webhook bot at ``url`` and must act now; its id and version."""
    record = service.create("tictactoe", [SeatSpec("Hook", {"webhook": url}), SeatSpec("Human")], {}).record
    if 0 not in record.game.to_act(record.state):
        record = service.submit(record.game_id, 1, "b2").record
    return record.game_id, record.version


class TestPolicy:
    @pytest.mark.parametrize("url", ATTACKS)
    def test_internal_addresses_are_refused_in_every_spelling(self, url: str) -> None:
        with pytest.raises(UnsafeWebhookURL, match="address"):
            WebhookPolicy().check_url(url)

    @pytest.mark.parametrize(
        ("url", "why"),
        [
            ("http://user:pass@8.8.8.8/", "credentials"),
            ("http://user@8.8.8.8/", "credentials"),
            ("http://8.8.8.8\\@127.0.0.1/", "backslashes"),
            ("ftp://8.8.8.8/", "http"),
            ("gopher://127.0.0.1:6379/_INFO", "http"),
            ("http://8.8.8.8:99999/", "(?i)port"),
        ],
    )
    def test_credentials_other_schemes_and_odd_urls_are_refused(self, url: str, why: str) -> None:
        with pytest.raises(UnsafeWebhookURL, match=why):
            WebhookPolicy().check_url(url)

    def test_public_addresses_pass_without_any_connection(self, loopback_only: list[tuple[str, int]]) -> None:
        for url in ("http://8.8.8.8/turn", "https://1.1.1.1:8443/x", "http://[2606:4700:4700::1111]/"):
            WebhookPolicy().check_url(url)
        assert loopback_only == []

    def test_every_address_of_a_name_is_checked(self, dns: dict[str, list[str]]) -> None:
        dns["intranet.example"] = ["10.1.2.3"]
        dns["mixed.example"] = [PUBLIC_IP, "192.168.0.10"]
        dns["public.example"] = [PUBLIC_IP, "2606:2800:220:1:248:1893:25c8:1946"]
        with pytest.raises(UnsafeWebhookURL, match="resolves to a private address") as refused:
            WebhookPolicy().check_url("http://intranet.example/")
        assert "10.1.2.3" not in str(refused.value)
        with pytest.raises(UnsafeWebhookURL, match="resolves to a private address"):
            WebhookPolicy().check_url("http://mixed.example/")
        WebhookPolicy().check_url("https://public.example/turn")

    def test_an_unresolvable_host_is_refused(self, dns: dict[str, list[str]]) -> None:
        dns["nowhere.example"] = []
        with pytest.raises(UnsafeWebhookURL, match="cannot be resolved"):
            WebhookPolicy().check_url("http://nowhere.example/")

    def test_the_allow_list_lets_chosen_networks_through(self) -> None:
        for url in ("http://127.0.0.1:8765/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://localhost/"):
            LOOPBACK.check_url(url)
        with pytest.raises(UnsafeWebhookURL):
            LOOPBACK.check_url("http://10.0.0.1/")
        WebhookPolicy(parse_allow("10.0.0.0/8")).check_address("10.9.8.7")
        with pytest.raises(UnsafeWebhookURL, match="carrier-grade NAT"):
            WebhookPolicy(parse_allow("10.0.0.0/8")).check_address("100.64.1.1")

    def test_the_setting_is_parsed_and_checked(self) -> None:
        assert parse_allow("") == ()
        assert parse_allow(" 10.0.0.0/8, ,::1/128,192.168.1.7") == (
            ipaddress.ip_network("10.0.0.0/8"),
            ipaddress.ip_network("::1/128"),
            ipaddress.ip_network("192.168.1.7/32"),
        )
        with pytest.raises(ValueError, match="ORRERY_WEBHOOK_ALLOW: 'localhost'"):
            parse_allow("localhost")
        assert Settings.from_env({}).webhook_allow == ()
        assert Settings.from_env({"ORRERY_WEBHOOK_ALLOW": LOOPBACK_ALLOW}).webhook_allow == parse_allow(LOOPBACK_ALLOW)

    @pytest.mark.parametrize(
        ("host", "given", "expected"),
        [
            ("127.0.0.1", None, LOOPBACK_ALLOW),
            ("localhost", None, LOOPBACK_ALLOW),
            ("::1", None, LOOPBACK_ALLOW),
            ("[::1]", None, LOOPBACK_ALLOW),
            ("0.0.0.0", None, None),
            ("::", None, None),
            ("192.168.1.5", None, None),
            ("127.0.0.1", "", ""),
            ("127.0.0.1", "10.0.0.0/8", "10.0.0.0/8"),
            ("0.0.0.0", "10.0.0.0/8", "10.0.0.0/8"),
        ],
    )
    def test_orrery_up_allows_the_loopback_only_on_a_loopback_bind(
        self, host: str, given: str | None, expected: str | None
    ) -> None:
        env = {"PATH": "/bin"} | ({} if given is None else {"ORRERY_WEBHOOK_ALLOW": given})
        assert with_webhook_allow_default(env, host).get("ORRERY_WEBHOOK_ALLOW") == expected


class TestCreation:
    @pytest.mark.parametrize("url", ATTACKS)
    def test_an_internal_webhook_is_refused_and_nothing_is_created(
        self, strict_client: Any, ssrf_store: RedisStore, url: str
    ) -> None:
        before = ssrf_store.list_games(limit=100)
        seats = [{"name": "Hook", "bot": {"webhook": url}}, {"name": "Human"}]
        response = strict_client.post("/v1/games", json={"game": "tictactoe", "seats": seats})
        assert response.status_code == 422, response.json
        error = response.json["error"]
        assert error["code"] == "invalid_request"
        assert error["message"].startswith("seat 0: webhook URL refused: ") and "address" in error["message"]
        assert ssrf_store.list_games(limit=100) == before

    def test_credentials_in_the_url_are_refused(self, strict_client: Any) -> None:
        seats = [{"name": "Hook", "bot": {"webhook": "https://bot:hunter2@8.8.8.8/turn"}}, {"name": "Human"}]
        response = strict_client.post("/v1/games", json={"game": "tictactoe", "seats": seats})
        assert response.status_code == 422 and "credentials" in response.json["error"]["message"]

    def test_a_public_webhook_is_accepted_without_a_connection(
        self, strict_client: Any, dns: dict[str, list[str]], loopback_only: list[tuple[str, int]]
    ) -> None:
        dns["bot.example"] = [PUBLIC_IP]
        seats = [{"name": "Hook", "bot": {"webhook": "https://bot.example/turn"}}, {"name": "Human"}]
        response = strict_client.post("/v1/games", json={"game": "tictactoe", "seats": seats})
        assert response.status_code == 201, response.json
        assert all(port != 443 for _, port in loopback_only)

    def test_a_fork_checks_the_webhook_again(self, service: GameService, client: Any) -> None:
        seats = [{"name": "Hook", "bot": {"webhook": "http://127.0.0.1:9/fork"}}, {"name": "Human"}]
        game = client.post("/v1/games", json={"game": "tictactoe", "seats": seats}).json
        service.submit(game["id"], 1, "resign")
        at = 1 + service.head(game["id"]).created.setup_events
        strict = GameService(service.store, webhook_policy=WebhookPolicy())
        with pytest.raises(InvalidRequest, match=r"webhook URL refused: 127\.0\.0\.1 is a loopback address"):
            strict.fork(game["id"], at, Role.AUDITOR)
        assert service.fork(game["id"], at, Role.AUDITOR).record.version == at


class TestDelivery:
    def test_dns_rebinding_to_the_loopback_is_refused_at_delivery_without_a_connection(
        self,
        strict: GameService,
        servers: Callable[..., Scripted],
        dns: dict[str, list[str]],
        loopback_only: list[tuple[str, int]],
    ) -> None:
        target = servers()
        url = f"http://rebind.example:{target.server.server_port}/turn"
        dns["rebind.example"] = [PUBLIC_IP]
        game_id, version = webhook_turn(strict, url)
        dns["rebind.example"] = ["127.0.0.1"]
        outcome = deliver(strict, game_id, 0, version, 1)
        assert outcome.status == "refused" and outcome.retry_in is None
        [logged] = strict.store.deliveries(game_id)
        assert logged["outcome"] == "refused" and logged["status"] is None and logged["latency_ms"] == 0
        assert "webhook policy" in logged["error"] and "loopback" in logged["error"]
        assert target.seen == []
        assert all(port != target.server.server_port for _, port in loopback_only)

    def test_refusals_look_the_same_whether_a_port_is_open_or_closed(
        self, strict: GameService, servers: Callable[..., Scripted], dns: dict[str, list[str]]
    ) -> None:
        open_port, closed_port = servers().server.server_port, free_port()
        logs = []
        for port in (open_port, closed_port):
            dns["scan.example"] = [PUBLIC_IP]
            game_id, version = webhook_turn(strict, f"http://scan.example:{port}/")
            dns["scan.example"] = ["127.0.0.1"]
            assert deliver(strict, game_id, 0, version, 1).status == "refused"
            [logged] = strict.store.deliveries(game_id)
            logs.append({k: v for k, v in logged.items() if k not in ("webhook_id", "at", "url", "version")})
        assert logs[0] == logs[1]

    def test_the_guarded_session_refuses_before_connecting(
        self, servers: Callable[..., Scripted], loopback_only: list[tuple[str, int]]
    ) -> None:
        target = servers()
        with guarded_http.session(WebhookPolicy()) as http, pytest.raises(UnsafeWebhookURL, match="loopback"):
            http.post(target.url, json={"legal_moves": ["a1"]}, timeout=5)
        assert target.seen == [] and loopback_only == []
        with guarded_http.session(LOOPBACK) as http:
            assert http.post(target.url, json={"legal_moves": ["a1"]}, timeout=5).status_code == 200
        assert len(target.seen) == 1

    def test_redirects_are_not_followed(self, ssrf_store: RedisStore, servers: Callable[..., Scripted]) -> None:
        inner = servers()
        outer = servers([307], {"Location": inner.url})
        loopback = GameService(ssrf_store, webhook_policy=LOOPBACK)
        game_id, version = webhook_turn(loopback, outer.url)
        outcome = deliver(loopback, game_id, 0, version, 1)
        [logged] = loopback.store.deliveries(game_id)
        assert logged["status"] == 307 and logged["error"] == "HTTP 307: redirects are not followed"
        assert outcome.status in ("retry", "gave_up") and logged["outcome"] == outcome.status
        assert len(outer.seen) == 1 and inner.seen == []

    def test_a_worker_with_an_empty_allow_list_refuses_once_and_never_connects(
        self, tmp_path: Path, ssrf_store: RedisStore, servers: Callable[..., Scripted]
    ) -> None:
        namespace = WORKER_NAMESPACE
        env = os.environ | {"ORRERY_NAMESPACE": namespace, "ORRERY_QUEUE": namespace, "ORRERY_WEBHOOK_ALLOW": ""}
        store = RedisStore(redis.Redis.from_url(os.environ["REDIS_URL"]), Keyspace(namespace))
        target = servers()
        before_policy = GameService(store, webhook_policy=LOOPBACK)
        game_id, version = webhook_turn(before_policy, target.url)
        worker = Worker(tmp_path, env).start(concurrency=1)
        try:
            logged = wait_for(lambda: store.deliveries(game_id), timeout=60)
            time.sleep(3)
        finally:
            worker.stop()
        assert [d["outcome"] for d in store.deliveries(game_id)] == ["refused"]
        assert logged[0]["version"] == version and "loopback" in logged[0]["error"]
        assert target.seen == []


class TestWhoSeesTheURL:
    URL = "http://127.0.0.1:9/very-secret-bot-path"

    @pytest.fixture
    def game(self, client: Any) -> dict[str, Any]:
        seats = [{"name": "Hook", "bot": {"webhook": self.URL}}, {"name": "Human"}]
        response = client.post("/v1/games", json={"game": "tictactoe", "seats": seats})
        assert response.status_code == 201
        return dict(response.json)

    def outputs(self, client: Any, game: dict[str, Any], token: str | None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        paths = ("", "/events?limit=1000", "/export", "/state", "/verify")
        out = {
            path: client.get(f"/v1/games/{game['id']}{path}", headers=headers).get_data(as_text=True) for path in paths
        }
        out["list"] = client.get("/v1/games?limit=100").get_data(as_text=True)
        return out

    def stream(self, service: GameService, game_id: str, viewer: Any) -> str:
        frames, last, text = game_events(service, game_id, viewer, 0, 1), service.head(game_id).version, ""
        while f"id: {last}\n" not in text:
            text += next(frames)
        frames.close()
        return text

    def test_the_created_response_shows_the_creator_its_url(self, game: dict[str, Any]) -> None:
        assert game["seats"][0]["bot"] == {"webhook": self.URL}

    def test_spectators_and_seats_see_a_webhook_bot_without_its_url(
        self, client: Any, service: GameService, game: dict[str, Any]
    ) -> None:
        for token in (None, game["seats"][1]["token"]):
            outputs = self.outputs(client, game, token)
            assert json.loads(outputs[""])["seats"][0]["bot"] == {"webhook": True}
            created = json.loads(outputs["/events?limit=1000"])["events"][0]
            assert created["type"] == "GameCreated" and created["redacted"] is True
            assert created["payload"]["seats"][0]["bot"] == {"webhook": True}
            for path, text in outputs.items():
                assert "very-secret-bot-path" not in text, path
        for viewer in (Role.SPECTATOR, 1, Role.AUDITOR):
            assert "very-secret-bot-path" not in self.stream(service, game["id"], viewer)

    def test_a_game_created_before_urls_were_hidden_hides_them_too(
        self, ssrf_store: RedisStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        loopback = GameService(ssrf_store, webhook_policy=LOOPBACK)
        with monkeypatch.context() as old_code:
            old_code.setattr(GameCreated, "visibility", lambda self: contract.PUBLIC)
            game_id = webhook_turn(loopback, self.URL)[0]
        assert ssrf_store.read(game_id)[0].visible_to is None
        for viewer in (Role.SPECTATOR, 1, Role.AUDITOR):
            created = loopback.events_for(game_id, viewer)[1][0]
            assert created["redacted"] is True and created["payload"]["seats"][0]["bot"] == {"webhook": True}
        loopback.submit(game_id, 1, "resign")
        assert loopback.events_for(game_id, Role.AUDITOR)[1][0]["payload"]["seats"][0]["bot"] == {"webhook": self.URL}

    def test_the_creator_sees_the_url_in_the_game_and_whole_log_once_it_is_over(
        self, client: Any, service: GameService, game: dict[str, Any], tmp_path: Path
    ) -> None:
        creator = {"Authorization": f"Bearer {game['creator_token']}"}
        detail = client.get(f"/v1/games/{game['id']}", headers=creator).json
        assert detail["seats"][0]["bot"] == {"webhook": self.URL}
        service.submit(game["id"], 1, "resign")
        service.score(game["id"])
        for token in (None, game["seats"][1]["token"]):
            for path, text in self.outputs(client, game, token).items():
                assert "very-secret-bot-path" not in text, path
        export = client.get(f"/v1/games/{game['id']}/export", headers=creator).get_data(as_text=True)
        assert json.loads(export.splitlines()[0])["complete"] is True and self.URL in export
        assert client.get(f"/v1/games/{game['id']}/verify").json["verdict"] == "ok"
        exported = tmp_path / "game.ndjson"
        exported.write_text(export)
        assert verify_export(str(exported)) == 0
