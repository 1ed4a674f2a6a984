"""``replay://PATH``: a recorded capture played back as if it were the board's serial port.

Reads return the capture's raw bytes (after its header) in order, ``chunk`` bytes at
a time (``replay://capture.bin?chunk=64``); writes (host commands) are kept in
``written`` and otherwise ignored. At the end of the capture reads return nothing,
like a quiet port.
"""

from __future__ import annotations

import urllib.parse

from serial.serialutil import PortNotOpenError, SerialBase, SerialException

from hardware.capture import MAGIC


class Serial(SerialBase):
    """A read-only serial port over a capture file."""

    def open(self) -> None:
        if self._port is None:
            raise SerialException("a port must be given: replay://PATH")
        if self.is_open:
            raise SerialException("port already open")
        parts = urllib.parse.urlsplit(self._port)
        path = urllib.parse.unquote(parts.netloc + parts.path)
        options = urllib.parse.parse_qs(parts.query)
        try:
            self._chunk = max(1, int(options.get("chunk", ["256"])[0]))
        except ValueError:
            raise SerialException("replay://: chunk must be a whole number") from None
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise SerialException(f"cannot open capture {path}: {error.strerror}") from None

        if data.startswith(MAGIC):
            data = data[data.find(b"\n", len(MAGIC)) + 1:]
        self._data = data
        self._position = 0
        self.written = bytearray()
        self.is_open = True

    def close(self) -> None:
        self.is_open = False

    def _reconfigure_port(self) -> None:
        """Nothing to configure on a file."""

    @property
    def in_waiting(self) -> int:
        if not self.is_open:
            raise PortNotOpenError()
        return min(self._chunk, len(self._data) - self._position)

    def read(self, size: int = 1) -> bytes:
        if not self.is_open:
            raise PortNotOpenError()
        size = min(size, self._chunk)
        piece = self._data[self._position:self._position + size]
        self._position += len(piece)
        return piece

    def write(self, data: bytes) -> int:
        if not self.is_open:
            raise PortNotOpenError()
        self.written.extend(data)
        return len(data)

    def reset_input_buffer(self) -> None:
        """A capture has no input buffer to drop."""

    def reset_output_buffer(self) -> None:
        self.written.clear()
