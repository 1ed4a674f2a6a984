"""A bounded queue of frames that never blocks the board when the host stops reading.

Frames wait here until the USB serial port can take them. When the queue is
full the oldest frames are dropped and counted; the host sees the gap in the
sequence numbers, and the count goes out in the next STATUS message.

Example::

    outbox = Outbox(sys.stdout.buffer, writable=lambda: bool(poller.poll(0)))
    outbox.put(frame_bytes)
    outbox.pump()
"""


class Outbox:
    """Frames waiting for the serial port; ``dropped`` counts those thrown away."""

    def __init__(self, stream, writable, capacity_bytes: int = 4096, max_writes: int = 8) -> None:
        self.stream = stream
        self.writable = writable
        self.capacity_bytes = capacity_bytes
        self.max_writes = max_writes
        self.dropped = 0
        self._queue = []
        self._queued_bytes = 0

    def __repr__(self) -> str:
        return (f"<Outbox {len(self._queue)} frames, {self._queued_bytes} bytes, "
                f"{self.dropped} dropped>")

    def __len__(self) -> int:
        return len(self._queue)

    def put(self, frame: bytes) -> None:
        """Queue one encoded frame, dropping the oldest ones if there is no room."""
        if len(frame) > self.capacity_bytes:
            self.dropped += 1
            return
        while self._queue and self._queued_bytes + len(frame) > self.capacity_bytes:
            self._queued_bytes -= len(self._queue.pop(0))
            self.dropped += 1
        self._queue.append(frame)
        self._queued_bytes += len(frame)

    def pump(self) -> int:
        """Write queued frames while the port can take them; returns how many went out."""
        sent = 0
        while self._queue and sent < self.max_writes and self.writable():
            frame = self._queue[0]
            written = self.stream.write(frame)
            if written is None or written <= 0:
                break
            if written < len(frame):
                self._queue[0] = frame[written:]
                self._queued_bytes -= written
                break
            self._queue.pop(0)
            self._queued_bytes -= len(frame)
            sent += 1
        return sent
