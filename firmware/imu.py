"""MPU-6050 accelerometer and gyroscope over I2C, sampled at a steady rate or via its FIFO.

Example (on the board)::

    from machine import I2C, Pin
    imu = MPU6050(I2C(0, sda=Pin(4), scl=Pin(5), freq=400000), rate_hz=200)
    if imu.data_ready():
        ax, ay, az, gx, gy, gz = imu.read_raw()
"""

import struct

ADDRESS = 0x68
SMPLRT_DIV = 0x19
CONFIG = 0x1A
GYRO_CONFIG = 0x1B
ACCEL_CONFIG = 0x1C
FIFO_EN = 0x23
INT_ENABLE = 0x38
INT_STATUS = 0x3A
ACCEL_XOUT_H = 0x3B
USER_CTRL = 0x6A
PWR_MGMT_1 = 0x6B
FIFO_COUNT_H = 0x72
FIFO_R_W = 0x74
WHO_AM_I = 0x75

ACCEL_RANGES = {2: 0, 4: 1, 8: 2, 16: 3}  # ± g -> AFS_SEL
GYRO_RANGES = {250: 0, 500: 1, 1000: 2, 2000: 3}  # ± dps -> FS_SEL
KNOWN_IDS = (0x68, 0x70, 0x72, 0x98)  # MPU-6050 and its common clones
FIFO_SAMPLE = 12  # accel xyz + gyro xyz, big-endian int16


class IMUError(Exception):
    """The IMU did not answer, or answered as something else."""


class MPU6050:
    """An MPU-6050 with its digital low-pass filter on (1 kHz internal rate)."""

    def __init__(self, i2c, address: int = ADDRESS, rate_hz: int = 200, accel_range_g: int = 4,
                 gyro_range_dps: int = 500, dlpf: int = 2) -> None:
        if accel_range_g not in ACCEL_RANGES or gyro_range_dps not in GYRO_RANGES:
            raise IMUError("unsupported range")
        self.i2c = i2c
        self.address = address
        self.accel_lsb_per_g = 16384 >> ACCEL_RANGES[accel_range_g]
        self.gyro_lsb_per_dps_x10 = 1310 >> GYRO_RANGES[gyro_range_dps]
        try:
            identity = self._read(WHO_AM_I, 1)[0]
        except OSError:
            raise IMUError(f"no IMU answers at I2C address 0x{address:02x}") from None
        if identity not in KNOWN_IDS:
            raise IMUError(f"device 0x{identity:02x} is not an MPU-6050")
        self._write(PWR_MGMT_1, 0x01)  # awake, clock from the X gyro
        self._write(CONFIG, dlpf & 7)
        self._write(GYRO_CONFIG, GYRO_RANGES[gyro_range_dps] << 3)
        self._write(ACCEL_CONFIG, ACCEL_RANGES[accel_range_g] << 3)
        self._write(INT_ENABLE, 0x01)  # data ready
        self.fifo = False
        self.rate_hz = 0
        self.set_rate(rate_hz)

    def __repr__(self) -> str:
        fifo = " fifo" if self.fifo else ""
        return f"<MPU6050 0x{self.address:02x} {self.rate_hz} Hz{fifo}>"

    def _write(self, register: int, value: int) -> None:
        self.i2c.writeto_mem(self.address, register, bytes([value]))

    def _read(self, register: int, count: int) -> bytes:
        return self.i2c.readfrom_mem(self.address, register, count)

    def set_rate(self, rate_hz: int) -> int:
        """Sample at ``rate_hz`` (4..1000), paced by the chip's own clock."""
        if not 4 <= rate_hz <= 1000:
            raise IMUError("rate must be 4..1000 Hz")
        divider = 1000 // rate_hz - 1
        self._write(SMPLRT_DIV, divider)
        self.rate_hz = 1000 // (divider + 1)
        return self.rate_hz

    def data_ready(self) -> bool:
        """True when a new sample is in the output registers."""
        return bool(self._read(INT_STATUS, 1)[0] & 0x01)

    def read_raw(self) -> tuple:
        """(ax, ay, az, gx, gy, gz) raw counts from the output registers."""
        ax, ay, az, _temp, gx, gy, gz = struct.unpack(">hhhhhhh", self._read(ACCEL_XOUT_H, 14))
        return ax, ay, az, gx, gy, gz

    def enable_fifo(self) -> None:
        """Queue accel and gyro samples in the chip's 1024-byte FIFO."""
        self._write(USER_CTRL, 0x04)  # reset the FIFO
        self._write(FIFO_EN, 0x78)  # gyro x, y, z and accel
        self._write(USER_CTRL, 0x40)  # FIFO on
        self.fifo = True

    def read_fifo(self, limit: int = 16) -> list:
        """Up to ``limit`` queued samples, oldest first, as (ax, ay, az, gx, gy, gz)."""
        high, low = self._read(FIFO_COUNT_H, 2)
        count = min((high << 8 | low) // FIFO_SAMPLE, limit)
        samples = []
        for _ in range(count):
            ax, ay, az, gx, gy, gz = struct.unpack(">hhhhhh", self._read(FIFO_R_W, FIFO_SAMPLE))
            samples.append((ax, ay, az, gx, gy, gz))
        return samples
