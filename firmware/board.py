"""The board's main loop, written against small seams so it runs on fakes in tests.

``Board.step()`` does one pass: read the HX711 when it is ready, read the IMU
when its sample is due, handle host commands, send a STATUS every second, and
push queued frames out without blocking. Every sample carries the board's own
microsecond timestamp.

A sensor that stops is reported at once, not only in the next second's STATUS:
when the HX711 has not been ready for more than ``LOAD_TIMEOUT_US`` or the
MPU-6050 does not acknowledge on I2C, a STATUS goes out with its flag cleared,
stamped with the moment the trouble began (the last reading; the failed read);
another, stamped now, when it reads again.

Example (``main.py`` builds the real one)::

    board = Board(cell, imu, outbox, read_input, ticks_us, ticks_diff, board_id)
    while True:
        board.step()
"""

try:
    from firmware import frames  # on the host, for the tests
except ImportError:
    import frames  # on the board, where every file sits at the top level

FIRMWARE_VERSION = "packref-drone 1.0"
IMU_MPU6050 = 1
STATUS_PERIOD_US = 1000000
LOAD_TIMEOUT_US = 200000  # the HX711 converts at 10 or 80 Hz: 200 ms without data is a fault


class Board:
    """The sensors, the outbox and the protocol state of one drone board."""

    def __init__(self, cell, imu, outbox, read_input, ticks_us, ticks_diff,
                 board_id: bytes = b"") -> None:
        self.cell = cell
        self.imu = imu
        self.outbox = outbox
        self.read_input = read_input  # () -> bytes waiting from the host, b"" if none
        self.ticks_us = ticks_us
        self.ticks_diff = ticks_diff
        self.board_id = board_id
        self.reader = frames.FrameReader()
        self.seq = 0
        self.elapsed_us = 0
        self._last_ticks = ticks_us()
        self._next_status_us = STATUS_PERIOD_US
        self._next_imu_us = None  # the IMU's sampling grid starts at its first sample
        self._averaging = None  # [command dict, command seq, readings so far]
        self.load_ok = True
        self.imu_ok = True
        self._last_load_us = 0  # the last HX711 reading (start-up counts as one)
        self.send_hello()

    def __repr__(self) -> str:
        return f"<Board seq={self.seq} t={self.elapsed_us}us {self.outbox!r}>"

    # -- time and sending ----------------------------------------------------------
    def now_us(self) -> int:
        """Microseconds since start-up (ticks wrap; this does not)."""
        ticks = self.ticks_us()
        self.elapsed_us += self.ticks_diff(ticks, self._last_ticks)
        self._last_ticks = ticks
        return self.elapsed_us

    def send(self, kind: int, payload: bytes, at_us: int | None = None) -> None:
        board_us = self.now_us() if at_us is None else at_us
        self.outbox.put(frames.encode_frame(kind, self.seq, board_us, payload))
        self.seq = (self.seq + 1) & 0xFFFF

    def send_hello(self) -> None:
        payload = frames.pack_hello(FIRMWARE_VERSION, IMU_MPU6050, self.imu.rate_hz,
                                    self.imu.accel_lsb_per_g, self.imu.gyro_lsb_per_dps_x10,
                                    self.board_id)
        self.send(frames.HELLO, payload)

    # -- one pass ------------------------------------------------------------------
    def step(self) -> None:
        self._poll_load_cell()
        self._poll_imu()
        self._poll_host()
        now = self.now_us()
        if now >= self._next_status_us:
            self.send_status()
        self.outbox.pump()

    def send_status(self, at_us=None) -> None:
        """A STATUS now (``at_us``: stamped with an earlier moment, when trouble began)."""
        self._next_status_us = self.now_us() + STATUS_PERIOD_US
        self.send(frames.STATUS, frames.pack_status(self.outbox.dropped, self.load_ok,
                                                    self.imu_ok, self.imu.rate_hz), at_us)

    def _health(self, load_ok, imu_ok, at_us=None) -> None:
        """Note the sensors' health; a change goes out in a STATUS at once."""
        if load_ok == self.load_ok and imu_ok == self.imu_ok:
            return
        self.load_ok, self.imu_ok = load_ok, imu_ok
        self.send_status(at_us)

    def _poll_load_cell(self):
        counts = self.cell.read()
        if counts is None:
            if self.load_ok and self.now_us() - self._last_load_us > LOAD_TIMEOUT_US:
                self._health(False, self.imu_ok, self._last_load_us)
            return
        at = self.now_us()
        self._last_load_us = at
        self.send(frames.SAMPLE_LOAD, frames.pack_load(counts), at)
        if not self.load_ok:
            self._health(True, self.imu_ok)
        if self._averaging is not None:
            self._average(counts)

    def _poll_imu(self):
        now = self.now_us()
        if self._next_imu_us is None:
            self._next_imu_us = now
        if now < self._next_imu_us:
            return
        try:
            if not self.imu.data_ready():
                return
            sample = self.imu.read_raw()
        except OSError:  # no acknowledge on I2C
            if self.imu_ok:
                self._health(self.load_ok, False, now)
            return
        if not self.imu_ok:
            self._health(self.load_ok, True)
        period = 1000000 // self.imu.rate_hz
        self._next_imu_us = max(self._next_imu_us + period, now - period)
        self.send(frames.SAMPLE_IMU, frames.pack_imu(*sample), now)

    # -- host commands -------------------------------------------------------------
    def _poll_host(self):
        data = self.read_input()
        if not data:
            return
        for frame in self.reader.feed(data):
            self.handle(frame)

    def handle(self, frame) -> None:
        """Carry out one host command frame and acknowledge it."""
        try:
            command = frames.decode_command(frame)
        except frames.FrameError:
            unknown = frame.kind not in frames.COMMANDS
            self._ack(frame.seq, frames.ACK_UNKNOWN if unknown else frames.ACK_BAD_PAYLOAD)
            return
        name = command["command"]
        if name == "hello?":
            self.send_hello()
        elif name == "set-rate":
            try:
                self.imu.set_rate(command["rate_hz"])
            except Exception:  # the IMU refuses the rate
                self._ack(frame.seq, frames.ACK_BAD_PAYLOAD)
                return
        elif self._averaging is not None:
            self._ack(frame.seq, frames.ACK_BUSY)
            return
        else:
            if command["samples"] < 1:
                self._ack(frame.seq, frames.ACK_BAD_PAYLOAD)
                return
            self._averaging = [command, frame.seq, []]
            return  # acknowledged when the average is ready
        self._ack(frame.seq, frames.ACK_OK)

    def _average(self, counts):
        command, seq, readings = self._averaging
        readings.append(counts)
        if len(readings) < command["samples"]:
            return
        mean = sum(readings) // len(readings)
        kind = 1 if command["command"] == "tare" else 2
        self.send(frames.CALIBRATION,
                  frames.pack_calibration(kind, mean, len(readings), command.get("mass_mg", 0)))
        self._averaging = None
        self._ack(seq, frames.ACK_OK)

    def _ack(self, command_seq, result):
        self.send(frames.ACK, frames.pack_ack(command_seq, result))
