"""The examples in the engine's docstrings."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "",
    ".pieces",
    ".position",
    ".notation",
    ".movegen",
    ".rules",
    ".transcripts",
    ".game",
    ".text_board",
    ".svg",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module("domain.homeworlds" + name)
    assert doctest.testmod(module).failed == 0
