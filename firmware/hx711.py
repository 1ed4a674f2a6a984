"""HX711 load-cell amplifier, bit-banged without breaking its timing.

The HX711 powers down when its clock stays high for more than 60 µs, so each
clock pulse runs with interrupts disabled: two pin writes, a few microseconds
on the RP2040, and no interrupt can stretch it. A reading is taken only when
the chip says it is ready (data line low), so nothing ever waits for it.

Example (on the board)::

    from machine import Pin, disable_irq, enable_irq
    cell = HX711(Pin(15, Pin.OUT), Pin(14, Pin.IN), disable_irq, enable_irq)
    if cell.ready():
        print(cell.read())
"""

GAIN_PULSES = {128: 1, 64: 3, 32: 2}  # extra pulses after the 24 data bits select the next gain


class HX711Error(Exception):
    """The HX711 is missing or its settings are impossible."""


class HX711:
    """One HX711 on a clock pin (output) and a data pin (input)."""

    def __init__(self, clock_pin, data_pin, disable_irq, enable_irq, gain: int = 128) -> None:
        if gain not in GAIN_PULSES:
            raise HX711Error("gain must be 128, 64 or 32")
        self.clock = clock_pin
        self.data = data_pin
        self._disable_irq = disable_irq
        self._enable_irq = enable_irq
        self.gain = gain
        self.readings = 0
        self.clock.value(0)

    def __repr__(self) -> str:
        return f"<HX711 gain={self.gain} readings={self.readings}>"

    def ready(self) -> bool:
        """True when a new conversion waits to be read (the data line is low)."""
        return self.data.value() == 0

    def _pulse(self) -> None:
        state = self._disable_irq()
        self.clock.value(1)
        self.clock.value(0)
        self._enable_irq(state)

    def read(self) -> int | None:
        """The signed 24-bit reading, or None when none is ready (never waits)."""
        if not self.ready():
            return None
        value = 0
        for _ in range(24):
            self._pulse()
            value = (value << 1) | self.data.value()
        for _ in range(GAIN_PULSES[self.gain]):
            self._pulse()
        if value & 0x800000:
            value -= 0x1000000
        self.readings += 1
        return value

    def power_down(self, sleep_us) -> None:
        """Hold the clock high past 60 µs: the chip sleeps until :meth:`power_up`."""
        self.clock.value(1)
        sleep_us(80)

    def power_up(self) -> None:
        self.clock.value(0)
