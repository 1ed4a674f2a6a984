"""The exceptions of :mod:`hardware`: one base class, so callers can catch them all."""

from __future__ import annotations


class HardwareError(Exception):
    """Base class of every error raised by :mod:`hardware`."""


class SampleFileError(HardwareError):
    """A sample file (CSV or raw capture) that cannot be read.

    The message names the file and the place, e.g. ``run.csv: line 7: field az: not a number``.
    """


class LinkError(HardwareError):
    """The serial link to the drone board failed (port missing, busy or unplugged)."""


class CalibrationError(HardwareError):
    """A calibration that cannot be made or loaded (e.g. a known mass reading no change)."""


class GpioError(HardwareError):
    """The buttons, light or buzzer could not be set up."""
