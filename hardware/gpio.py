"""The referee's buttons, light and buzzer on the Pi's GPIO, through gpiozero.

Sensors cannot see a finger touching a present, and people make mistakes, so
three buttons sit by the table: *start* (a round's challenge begins), *foul*
(a loaded present was touched) and *undo* (take back the last call). When a
present falls, a light blinks and a buzzer beeps.

Example (on the Pi; tests pass ``pin_factory=MockFactory()``)::

    from hardware.gpio import RefereeButtons, FallAlarm
    buttons = RefereeButtons()          # start GPIO17, foul GPIO27, undo GPIO22
    alarm = FallAlarm()                 # light GPIO23, buzzer GPIO24
    ...
    for press in buttons.presses():     # [{"t": 12.5, "button": "foul"}, ...]
        print(press)
    alarm.alert()
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.errors import GpioError

BUTTONS = ("start", "foul", "undo")


class RefereeButtons:
    """Three push buttons (to ground, internal pull-ups) that queue their presses.

    ``clock`` stamps each press; pass the drone stream's clock to compare presses
    with events.
    """

    def __init__(self, start_pin: int | str = 17, foul_pin: int | str = 27,
                 undo_pin: int | str = 22, *, bounce_time: float | None = 0.05,
                 clock: Callable[[], float] = time.monotonic, pin_factory: Any = None) -> None:
        from gpiozero import Button
        from gpiozero.exc import GPIOZeroError

        self.clock = clock
        self._lock = threading.Lock()
        self._pending: list[dict] = []
        self._buttons: dict[str, Any] = {}
        try:
            for name, pin in zip(BUTTONS, (start_pin, foul_pin, undo_pin), strict=True):
                button = Button(pin, bounce_time=bounce_time, pin_factory=pin_factory)
                button.when_pressed = self._recorder(name)
                self._buttons[name] = button
        except GPIOZeroError as error:
            self.close()
            raise GpioError(f"cannot set up the referee buttons: {error}") from None

    def __repr__(self) -> str:
        pins = ", ".join(f"{name}={button.pin}" for name, button in self._buttons.items())
        return f"<RefereeButtons {pins}, {len(self._pending)} presses waiting>"

    def _recorder(self, name: str) -> Callable[[], None]:
        def pressed() -> None:
            with self._lock:
                self._pending.append({"t": self.clock(), "button": name})
        return pressed

    def presses(self) -> list[dict]:
        """The presses since the last call, oldest first: ``{"t": ..., "button": ...}``."""
        with self._lock:
            pending, self._pending = self._pending, []
        return pending

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __enter__(self) -> RefereeButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class FallAlarm:
    """A light and a buzzer that go off when a present falls."""

    def __init__(self, light_pin: int | str = 23, buzzer_pin: int | str = 24, *,
                 pin_factory: Any = None) -> None:
        from gpiozero import LED, Buzzer
        from gpiozero.exc import GPIOZeroError

        try:
            self.light = LED(light_pin, pin_factory=pin_factory)
            self.buzzer = Buzzer(buzzer_pin, pin_factory=pin_factory)
        except GPIOZeroError as error:
            raise GpioError(f"cannot set up the fall alarm: {error}") from None

    def __repr__(self) -> str:
        state = "on" if self.light.is_lit else "off"
        return f"<FallAlarm light={self.light.pin} buzzer={self.buzzer.pin} {state}>"

    def alert(self, seconds: float = 2.0, background: bool = True) -> None:
        """Blink and beep for about ``seconds`` (in the background unless told otherwise)."""
        flashes = max(1, round(seconds / 0.4))
        self.buzzer.beep(on_time=0.2, off_time=0.2, n=flashes, background=True)
        self.light.blink(on_time=0.2, off_time=0.2, n=flashes, background=background)

    def clear(self) -> None:
        """Light and buzzer off, now."""
        self.light.off()
        self.buzzer.off()

    def close(self) -> None:
        self.light.close()
        self.buzzer.close()

    def __enter__(self) -> FallAlarm:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
