"""Write the README's pictures (``docs/*.svg``) through the API, in-process.

Run ``.venv/bin/python docs/make_pictures.py`` (``REDIS_URL`` names a Redis; without it an embedded one
is started). Each entry of :data:`PICTURES` plays a game through the API and returns the SVG that
``GET /v1/games/{id}/board.svg`` answers; its keys are the files written beside this script. Games
are created in a namespace of their own, whose keys are deleted afterwards.
"""

from __future__ import annotations

import os
import sys
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

FOLDER = Path(__file__).resolve().parent
sys.path.insert(0, str(FOLDER.parent))

BAKER_V_LOONEY = """\
homeworld r1 b2 g3 Babamots
homeworld y3 b1 g3 Andy
build g1 Babamots
build g1 Andy
trade g1 b1 Babamots
trade g1 b1 Andy
build b2 Babamots
build b2 Andy
trade b2 y2 Babamots
discover b2 Andy g2 A
discover b1 Babamots g3 B
build g1 Andy
build y1 Babamots
trade g1 y1 Andy
move y1 Babamots B
move y1 Andy A
build g1 Babamots
build g1 Andy
build y1 Babamots
build y2 A
build y2 B
discover y2 A b3 C
trade y1 r1 B
trade g1 r1 Andy
discover y2 Babamots b3 D
discover b2 A y3 E
sacrifice g3 Babamots; build y1 D; build y3 Babamots; build b2 B
trade b2 g2 E
sacrifice b2 B; trade y1 g1 Babamots; trade y2 g2 D
build r2 Andy
build r2 B
discover r2 Andy y2 F
move g1 Babamots E
move r2 F E
move r2 B A
discover y1 A g3 G
sacrifice g2 D; build r2 A; build r3 B
sacrifice g2 E; build r3 Andy; build r3 E
"""
"""The first 38 turns of Jonathan Baker (Babamots) v Andrew Looney (Andy), 2020, from jpeterbaker's
"Notable games" (the reference pack's ``games/notable/baker_v_looney_2020.txt``)."""


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def homeworlds(client: FlaskClient) -> str:
    """The board of Baker v Looney after 38 turns, as a spectator sees it."""
    body = {"game": "homeworlds", "seats": [{"name": "Babamots"}, {"name": "Andy"}]}
    game: Any = client.post("/v1/games", json=body).json
    for number, move in enumerate(BAKER_V_LOONEY.splitlines()):
        token = game["seats"][number % 2]["token"]
        moved = client.post(f"/v1/games/{game['id']}/moves", json={"move": move}, headers=auth(token))
        assert moved.status_code == 201, moved.get_data(as_text=True)
    answer = client.get(f"/v1/games/{game['id']}/board.svg")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml", answer.get_data(as_text=True)
    return answer.get_data(as_text=True)


def planet_unknown(client: FlaskClient) -> str:
    """A 2-seat Planet Unknown game in round 7, both seats playing legal moves picked by a seeded rng,
    as a spectator sees it."""
    import random

    rng = random.Random("planet-unknown-board")
    body = {"game": "planet-unknown", "seats": [{"name": "Ada"}, {"name": "Grace"}], "options": {"events": True}}
    game: Any = client.post("/v1/games", json=body).json
    tokens = [seat["token"] for seat in game["seats"]]
    while True:
        info: Any = client.get(f"/v1/games/{game['id']}").json
        if not info["to_act"] or (info.get("state") or {}).get("round", 0) >= 7:
            break
        seat = info["to_act"][0]
        legal: Any = client.get(f"/v1/games/{game['id']}/legal-moves", headers=auth(tokens[seat])).json
        moved = client.post(
            f"/v1/games/{game['id']}/moves", json={"move": rng.choice(legal["moves"])}, headers=auth(tokens[seat])
        )
        assert moved.status_code == 201, moved.get_data(as_text=True)
    answer = client.get(f"/v1/games/{game['id']}/board.svg")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml", answer.get_data(as_text=True)
    return answer.get_data(as_text=True)


PICTURES: dict[str, Callable[[FlaskClient], str]] = {
    "homeworlds-board.svg": homeworlds,
    "planet-unknown-board.svg": planet_unknown,
}
"""File name (in ``docs/``) to the function that plays its game and returns the board."""


def main() -> None:
    """Write every picture of :data:`PICTURES` beside this script."""
    from app import Settings, create_app

    embedded = None
    env = dict(os.environ)
    if not env.get("REDIS_URL"):
        from events.embedded import EmbeddedRedis

        embedded = EmbeddedRedis(Path(tempfile.mkdtemp(prefix="orrery-pictures-")), persistent=False).start()
        env["REDIS_URL"] = str(embedded.url)
    namespace = f"orrery-pictures-{uuid.uuid4().hex[:8]}"
    env |= {"ORRERY_NAMESPACE": namespace, "ORRERY_QUEUE": namespace}
    for name in ("ORRERY_LIMIT_CREATE", "ORRERY_LIMIT_MOVES", "ORRERY_LIMIT_MOVES_PER_ADDRESS"):
        env[name] = "100000/minute"
    app = create_app(Settings.from_env(env))
    try:
        client = app.test_client()
        for name, make in PICTURES.items():
            (FOLDER / name).write_text(make(client), encoding="utf-8")
            print(f"wrote docs/{name}")
    finally:
        redis = app.extensions["orrery.service"].store.redis
        keys = list(redis.scan_iter(f"*{namespace}*", count=1000))
        if keys:
            redis.unlink(*keys)
        if embedded is not None:
            embedded.stop()


if __name__ == "__main__":
    main()
