"""``/healthz``: is Redis up, and does a worker answer?"""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from api import schemas
from domain import contract

blp = Blueprint("health", __name__, url_prefix="/healthz", description="Liveness of the service and its parts.")


@blp.route("")
class Health(MethodView):
    @blp.response(200, schemas.Health)
    @blp.alt_response(503, schema=schemas.Health, description="Redis does not answer.")
    def get(self) -> Any:
        """Check Redis and whether a Celery worker answers a ping (within half a second)."""
        from app import celery

        service = current_app.extensions["orrery.service"]
        try:
            service.store.redis.ping()
            redis_state = "ok"
        except Exception as error:
            redis_state = f"down: {error}"
        worker_state = "none"
        if redis_state == "ok":
            try:
                replies = celery.control.ping(timeout=0.5)
                worker_state = "ok" if replies else "none"
            except Exception as error:
                worker_state = f"unknown: {error}"
        body = {"redis": redis_state, "worker": worker_state, "games": contract.names()}
        return body, 200 if redis_state == "ok" else 503
