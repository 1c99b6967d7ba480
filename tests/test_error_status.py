"""The service and the rules raise errors without HTTP statuses; ``api.errors.ERROR_STATUS`` maps every code."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from api.errors import ERROR_STATUS
from domain.contract import RuleError
from service.games import ServiceError

RAISING_MODULES = (
    "service.games",
    "service.bots",
    "service.json_guard",
    "domain.table.record",
    "api.limits",
    "api.board",
    "api.ratings",
    "domain.contract",
    "domain.homeworlds.errors",
)


def with_subclasses(base: type[Any]) -> list[type[Any]]:
    found: list[type[Any]] = [base]
    todo = [base]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    return found


@pytest.fixture(scope="module", autouse=True)
def raising_modules() -> None:
    for name in RAISING_MODULES:
        importlib.import_module(name)


class TestErrorStatus:
    def test_no_service_error_carries_a_status(self) -> None:
        assert [cls.__name__ for cls in with_subclasses(ServiceError) if "status" in vars(cls)] == []

    def test_every_service_error_code_has_a_status(self) -> None:
        codes = {cls.code for cls in with_subclasses(ServiceError)}
        assert sorted(codes - set(ERROR_STATUS)) == []

    def test_every_rule_error_code_has_a_status(self) -> None:
        codes = {str(cls.code) for cls in with_subclasses(RuleError)}
        assert sorted(codes - set(ERROR_STATUS)) == []

    @pytest.mark.parametrize(
        ("code", "status"),
        [
            ("malformed_json", 400),
            ("unauthorized", 401),
            ("not_your_turn", 403),
            ("unknown_game", 404),
            ("stale_version", 409),
            ("weak_seed", 422),
            ("illegal_move", 422),
            ("game_over", 423),
            ("too_many_streams", 429),
        ],
    )
    def test_statuses_clients_rely_on(self, code: str, status: int) -> None:
        assert ERROR_STATUS[code] == status
