"""The drone board's frame format, shared by the board (MicroPython) and the host (CPython).

This one file is copied onto the board when it is flashed and imported by the
host as ``firmware.frames``, so both ends always speak the same protocol. It
uses only what both runtimes have: ``struct`` and plain bytes (no typing, no
dataclasses, no zlib).

A frame on the wire is ``00 | COBS(body) | 00``; the body is::

    offset 0  u8   protocol version (PROTOCOL_VERSION)
    offset 1  u8   message type (HELLO, SAMPLE_IMU, ...)
    offset 2  u16  sequence number, per sender, wrapping at 65536
    offset 4  u32  board time in microseconds, wrapping at 2**32
    offset 8  ...  payload (little-endian, one layout per message type)
    last 4    u32  CRC-32 (IEEE, as zlib.crc32) of everything before it

COBS leaves no zero byte inside a frame, so a reader that joins mid-stream or
meets garbage skips to the next zero and carries on.

Example::

    >>> frame = encode_frame(SAMPLE_LOAD, 7, 1000, pack_load(-1234))
    >>> reader = FrameReader()
    >>> [(f.kind, f.seq, f.board_us, unpack_load(f.payload)) for f in reader.feed(frame)]
    [(17, 7, 1000, -1234)]
"""

import struct

try:
    from binascii import crc32 as _native_crc32
except ImportError:  # a MicroPython build without binascii.crc32
    _native_crc32 = None

PROTOCOL_VERSION = 1
MAX_BODY = 255  # bytes of header + payload + CRC; longer runs are garbage

# Board -> host
HELLO = 0x01
STATUS = 0x02
CALIBRATION = 0x03
ACK = 0x04
SAMPLE_IMU = 0x10
SAMPLE_LOAD = 0x11
# Host -> board
CMD_TARE = 0x20
CMD_CALIBRATE = 0x21
CMD_SET_RATE = 0x22
CMD_HELLO = 0x23

COMMANDS = (CMD_TARE, CMD_CALIBRATE, CMD_SET_RATE, CMD_HELLO)
NAMES = {HELLO: "hello", STATUS: "status", CALIBRATION: "calibration", ACK: "ack",
         SAMPLE_IMU: "imu", SAMPLE_LOAD: "load", CMD_TARE: "tare",
         CMD_CALIBRATE: "calibrate", CMD_SET_RATE: "set-rate", CMD_HELLO: "hello?"}

ACK_OK = 0
ACK_UNKNOWN = 1
ACK_BAD_PAYLOAD = 2
ACK_BUSY = 3

_STRUCT_ERRORS = (ValueError, getattr(struct, "error", ValueError))
_HEADER = "<BBHI"
_HEADER_SIZE = 8
_CRC_SIZE = 4


class FrameError(ValueError):
    """A frame that cannot be decoded: bad COBS, wrong length, CRC or version."""


# -- CRC-32 -----------------------------------------------------------------------------

_TABLE = None


def _crc_table():
    global _TABLE
    if _TABLE is None:
        table = []
        for byte in range(256):
            value = byte
            for _ in range(8):
                value = (value >> 1) ^ 0xEDB88320 if value & 1 else value >> 1
            table.append(value)
        _TABLE = table
    return _TABLE


def crc32_pure(data: bytes, crc: int = 0) -> int:
    """CRC-32 (IEEE 802.3, as zlib.crc32) in plain Python."""
    table = _crc_table()
    crc = crc ^ 0xFFFFFFFF
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32(data: bytes, crc: int = 0) -> int:
    """CRC-32 of ``data``: the runtime's own when it has one, else :func:`crc32_pure`."""
    if _native_crc32 is not None:
        return _native_crc32(data, crc) & 0xFFFFFFFF
    return crc32_pure(data, crc)


# -- COBS -------------------------------------------------------------------------------


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: ``data`` without any zero byte."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """The bytes that :func:`cobs_encode` turned into ``data``; FrameError if malformed."""
    out = bytearray()
    index = 0
    length = len(data)
    while index < length:
        code = data[index]
        if code == 0:
            raise FrameError("zero byte inside a COBS block")
        end = index + code
        if end > length:
            raise FrameError("COBS block runs past the end of the frame")
        out.extend(data[index + 1:end])
        index = end
        if code != 255 and index < length:
            out.append(0)
    return bytes(out)


# -- frames -----------------------------------------------------------------------------


class Frame:
    """One decoded message: ``kind``, ``seq``, ``board_us``, ``payload`` (and ``version``)."""

    __slots__ = ("board_us", "kind", "payload", "seq", "version")

    def __init__(self, kind: int, seq: int, board_us: int, payload: bytes = b"",
                 version: int = PROTOCOL_VERSION) -> None:
        self.kind = kind
        self.seq = seq
        self.board_us = board_us
        self.payload = payload
        self.version = version

    def __repr__(self) -> str:
        name = NAMES.get(self.kind, hex(self.kind))
        return f"<Frame {name} seq={self.seq} t={self.board_us}us {len(self.payload)} bytes>"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Frame) and self.kind == other.kind and self.seq == other.seq
                and self.board_us == other.board_us and self.payload == other.payload
                and self.version == other.version)


def encode_frame(kind: int, seq: int, board_us: int, payload: bytes = b"") -> bytes:
    """The bytes on the wire for one message, zero delimiters included."""
    body = struct.pack(_HEADER, PROTOCOL_VERSION, kind, seq & 0xFFFF, board_us & 0xFFFFFFFF)
    body += bytes(payload)
    if len(body) + _CRC_SIZE > MAX_BODY:
        raise FrameError("payload too long")
    body += struct.pack("<I", crc32(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


def decode_frame(encoded: bytes) -> "Frame":
    """The :class:`Frame` in one COBS-encoded frame (without its delimiters)."""
    body = cobs_decode(encoded)
    if len(body) < _HEADER_SIZE + _CRC_SIZE:
        raise FrameError("frame too short")
    (expected,) = struct.unpack("<I", body[-_CRC_SIZE:])
    if crc32(body[:-_CRC_SIZE]) != expected:
        raise FrameError("CRC mismatch")
    version, kind, seq, board_us = struct.unpack(_HEADER, body[:_HEADER_SIZE])
    if version != PROTOCOL_VERSION:
        raise FrameError(f"protocol version {version}, expected {PROTOCOL_VERSION}")
    return Frame(kind, seq, board_us, bytes(body[_HEADER_SIZE:-_CRC_SIZE]), version)


class FrameReader:
    """Splits a byte stream into frames, skipping garbage and cut frames.

    ``feed(data)`` returns the complete frames found so far; ``bad_frames``
    counts the pieces between zeros that were not valid frames.
    """

    def __init__(self, max_body: int = MAX_BODY) -> None:
        self.max_body = max_body
        self.bad_frames = 0
        self.frames = 0
        self._buffer = bytearray()
        self._overflow = False

    def __repr__(self) -> str:
        return (f"<FrameReader {self.frames} frames, {self.bad_frames} bad, "
                f"{len(self._buffer)} bytes pending>")

    def feed(self, data: bytes) -> list:
        """Frames completed by ``data``, in order."""
        found = []
        for byte in data:
            if byte != 0:
                if len(self._buffer) < self.max_body + 2:
                    self._buffer.append(byte)
                else:
                    self._overflow = True
                continue
            if self._overflow:
                self.bad_frames += 1
            elif self._buffer:
                frame = self._decode(bytes(self._buffer))
                if frame is not None:
                    found.append(frame)
            self._buffer = bytearray()
            self._overflow = False
        return found

    def _decode(self, encoded):
        try:
            frame = decode_frame(encoded)
        except FrameError:
            self.bad_frames += 1
            return None
        self.frames += 1
        return frame


# -- payloads ---------------------------------------------------------------------------

_HELLO = "<BBHHH8s"


def pack_hello(firmware: str, imu_kind: int, rate_hz: int, accel_lsb_per_g: int,
               gyro_lsb_per_dps_x10: int, board_id: bytes) -> bytes:
    """HELLO: protocol, IMU kind, sample rate, IMU scales, 8-byte board id, firmware text."""
    board_id = (bytes(board_id) + bytes(8))[:8]
    return struct.pack(_HELLO, PROTOCOL_VERSION, imu_kind, rate_hz, accel_lsb_per_g,
                       gyro_lsb_per_dps_x10, board_id) + firmware.encode()


def unpack_hello(payload: bytes) -> dict:
    """A dict with protocol, imu, rate_hz, accel_lsb_per_g, gyro_lsb_per_dps, board_id, firmware."""
    size = struct.calcsize(_HELLO)
    if len(payload) < size:
        raise FrameError("hello payload too short")
    protocol, imu, rate, accel, gyro, board = struct.unpack(_HELLO, payload[:size])
    return {"protocol": protocol, "imu": imu, "rate_hz": rate, "accel_lsb_per_g": accel,
            "gyro_lsb_per_dps": gyro / 10, "board_id": board.hex(),
            "firmware": bytes(payload[size:]).decode()}


def pack_imu(ax: int, ay: int, az: int, gx: int, gy: int, gz: int) -> bytes:
    """SAMPLE_IMU: the six raw signed 16-bit readings."""
    return struct.pack("<hhhhhh", ax, ay, az, gx, gy, gz)


def unpack_imu(payload: bytes) -> tuple:
    if len(payload) != 12:
        raise FrameError("imu payload must be 12 bytes")
    return struct.unpack("<hhhhhh", payload)


def pack_load(counts: int) -> bytes:
    """SAMPLE_LOAD: one raw 24-bit HX711 reading, sign-extended to 32 bits."""
    return struct.pack("<i", counts)


def unpack_load(payload: bytes) -> int:
    if len(payload) != 4:
        raise FrameError("load payload must be 4 bytes")
    return struct.unpack("<i", payload)[0]


def pack_status(dropped: int, load_ok: bool, imu_ok: bool, rate_hz: int) -> bytes:
    """STATUS: frames the board dropped (host not reading), sensor health, sample rate."""
    flags = (1 if load_ok else 0) | (2 if imu_ok else 0)
    return struct.pack("<IBH", dropped, flags, rate_hz)


def unpack_status(payload: bytes) -> dict:
    if len(payload) != 7:
        raise FrameError("status payload must be 7 bytes")
    dropped, flags, rate = struct.unpack("<IBH", payload)
    return {"dropped": dropped, "load_ok": bool(flags & 1), "imu_ok": bool(flags & 2),
            "rate_hz": rate}


def pack_calibration(kind: int, mean_counts: int, samples: int, mass_mg: int) -> bytes:
    """CALIBRATION: the mean raw reading for a tare (kind 1) or a known mass (kind 2)."""
    return struct.pack("<BiHI", kind, mean_counts, samples, mass_mg)


def unpack_calibration(payload: bytes) -> dict:
    if len(payload) != 11:
        raise FrameError("calibration payload must be 11 bytes")
    kind, mean, samples, mass = struct.unpack("<BiHI", payload)
    return {"kind": "tare" if kind == 1 else "calibrate", "mean_counts": mean,
            "samples": samples, "mass_mg": mass}


def pack_ack(command_seq: int, result: int) -> bytes:
    return struct.pack("<HB", command_seq, result)


def unpack_ack(payload: bytes) -> dict:
    if len(payload) != 3:
        raise FrameError("ack payload must be 3 bytes")
    seq, result = struct.unpack("<HB", payload)
    return {"command_seq": seq, "result": result}


# -- host commands ----------------------------------------------------------------------


def encode_command(name: str, seq: int, host_us: int = 0, samples: int = 16, mass_mg: int = 0,
                   rate_hz: int = 0) -> bytes:
    """A host command frame: ``tare``, ``calibrate``, ``set-rate`` or ``hello?``."""
    if name == "tare":
        return encode_frame(CMD_TARE, seq, host_us, struct.pack("<H", samples))
    if name == "calibrate":
        return encode_frame(CMD_CALIBRATE, seq, host_us, struct.pack("<IH", mass_mg, samples))
    if name == "set-rate":
        return encode_frame(CMD_SET_RATE, seq, host_us, struct.pack("<H", rate_hz))
    if name == "hello?":
        return encode_frame(CMD_HELLO, seq, host_us)
    raise FrameError("unknown command " + str(name))


def decode_command(frame: "Frame") -> dict:
    """A host command as a dict ``{"command": name, ...arguments}``; FrameError if unknown."""
    payload = frame.payload
    try:
        if frame.kind == CMD_TARE:
            return {"command": "tare", "samples": struct.unpack("<H", payload)[0]}
        if frame.kind == CMD_CALIBRATE:
            mass, samples = struct.unpack("<IH", payload)
            return {"command": "calibrate", "mass_mg": mass, "samples": samples}
        if frame.kind == CMD_SET_RATE:
            return {"command": "set-rate", "rate_hz": struct.unpack("<H", payload)[0]}
        if frame.kind == CMD_HELLO and not payload:
            return {"command": "hello?"}
    except _STRUCT_ERRORS:
        raise FrameError("bad payload for command " + hex(frame.kind)) from None
    raise FrameError("not a command: " + hex(frame.kind))
