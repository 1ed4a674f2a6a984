"""The drone's side of packref: sensor samples, event detection, serial link, GPIO.

``hardware`` never imports ``rules`` or ``station``; it produces plain values
(:class:`~hardware.samples.Samples`, :class:`~hardware.events.DroneEvent`,
:class:`~hardware.faults.SensorFault`) that others translate into game actions.
A live board is read through one component, :class:`hardware.stream.DroneStream`
(link → frames → samples → live detector). The frame format it shares with the
board lives in :mod:`firmware.frames`.

Example::

    >>> from hardware.simulate import simulate_challenge
    >>> from hardware.events import detect_events
    >>> run = simulate_challenge(seed=1)
    >>> [event.event for event in detect_events(run.samples)][:3]
    ['load', 'lift', 'land']
"""

from hardware.errors import (
    CalibrationError,
    GpioError,
    HardwareError,
    LinkError,
    SampleFileError,
)

__all__ = ["CalibrationError", "GpioError", "HardwareError", "LinkError", "SampleFileError"]
