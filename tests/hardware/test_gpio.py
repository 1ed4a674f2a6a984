"""Buttons, light and buzzer through gpiozero's mock pin factory."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.errors import GpioError
from hardware.gpio import FallAlarm, RefereeButtons


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_presses_are_queued_with_their_time(factory) -> None:
    clock = iter([1.0, 2.5, 4.0])
    with RefereeButtons(bounce_time=None, clock=lambda: next(clock),
                        pin_factory=factory) as buttons:
        press(factory, 17)
        press(factory, 27)
        press(factory, 22)
        assert "3 presses waiting" in repr(buttons)
        assert buttons.presses() == [{"t": 1.0, "button": "start"},
                                     {"t": 2.5, "button": "foul"},
                                     {"t": 4.0, "button": "undo"}]
        assert buttons.presses() == []


def test_a_pin_in_use_is_a_gpio_error(factory) -> None:
    with RefereeButtons(pin_factory=factory), pytest.raises(GpioError, match="buttons"):
        RefereeButtons(start_pin=5, foul_pin=27, undo_pin=6, pin_factory=factory)


def test_the_alarm_blinks_and_beeps_then_clears(factory) -> None:
    with FallAlarm(pin_factory=factory) as alarm:
        alarm.alert(seconds=0.1, background=False)
        light = [state.state for state in factory.pin(23).states]
        buzzer = [state.state for state in factory.pin(24).states]
        assert True in light and True in buzzer
        alarm.light.on()
        assert "on" in repr(alarm)
        alarm.clear()
        assert not alarm.light.is_lit and not alarm.buzzer.is_active
