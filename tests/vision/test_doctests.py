"""The examples in the vision modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["vision", "vision.cells", "vision.config", "vision.errors", "vision.kit",
           "vision.kit_print", "vision.layout", "vision.markers", "vision.mats", "vision.overlay",
           "vision.quiet",
           "vision.reader", "vision.render", "vision.sources", "vision.stability", "vision.tags",
           "vision.games", "vision.games.moving_day", "vision.games.pick_n_packers",
           "vision.games.removal", "vision.games.small_warehouse", "station.tags",
           "devkit.vision.fixture_sets"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
