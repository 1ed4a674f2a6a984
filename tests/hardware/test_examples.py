"""The runnable examples in the docstrings of hardware/ and firmware/frames.py."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["hardware", "hardware.samples", "hardware.simulate", "hardware.events",
           "devkit.hardware.evaluation", "hardware.config", "hardware.calibration",
           "hardware.capture", "hardware.faults", "devkit.hardware.simulate_platform",
           "hardware.stream", "firmware.frames", "rules.games.pick_n_packers.referee"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(module, optionflags=flags)
    assert result.failed == 0
