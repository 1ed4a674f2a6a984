"""Replaying captures through the same link code as a live board: ``replay://PATH``.

Importing this module registers the URL scheme with pyserial.

Example::

    >>> import hardware.replay, serial
    >>> port = serial.serial_for_url("replay://fixtures/drone/sim-0001.bin", timeout=0)
    >>> len(port.read(16))
    16
"""

from __future__ import annotations

import serial

PACKAGE = "hardware.serial_urls"


def register() -> None:
    """Teach ``serial.serial_for_url`` the ``replay://`` scheme (idempotent)."""
    if PACKAGE not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append(PACKAGE)


register()
