"""Liveness (``/healthz``: the process answers) and readiness (``/readyz``: Redis and the workers)."""

from __future__ import annotations

from typing import Any

from celery import Celery
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from api import docs, schemas
from domain import contract

blp = Blueprint("health", __name__, description="Liveness and readiness of the service and its parts.")

WORKER_PING_S = 0.5
"""How long ``/readyz`` waits for a worker to answer its ping (it returns at the first answer)."""


@blp.route("/healthz")
class Liveness(MethodView):
    @blp.response(200, schemas.Liveness)
    @blp.doc(**docs.operation("healthz"))
    def get(self) -> Any:
        """Liveness: answers at once while the process serves requests. It touches neither Redis nor the workers."""
        return {"status": "ok", "games": contract.names()}


@blp.route("/readyz")
class Readiness(MethodView):
    @blp.response(200, schemas.Health)
    @blp.alt_response(503, schema=schemas.Health, description="Redis does not answer.")
    @blp.doc(**docs.operation("readyz"))
    def get(self) -> Any:
        """Readiness: Redis answers a ping (else 503), and whether a Celery worker answers one (`ok` or `none`).

        A missing worker is reported, not a 503: the API still serves reads and moves
        without one; bot turns and scoring wait until a worker is back.
        """
        service = current_app.extensions["orrery.service"]
        celery: Celery = current_app.extensions["celery"]
        try:
            redis_state = "ok" if service.store.ping() else "down"
        except Exception as error:
            redis_state = f"down: {error}"
        worker_state = "none"
        if redis_state == "ok":
            try:
                replies = celery.control.ping(timeout=WORKER_PING_S, limit=1)
                worker_state = "ok" if replies else "none"
            except Exception as error:
                worker_state = f"unknown: {error}"
        body = {"redis": redis_state, "worker": worker_state, "games": contract.names()}
        return body, 200 if redis_state == "ok" else 503
