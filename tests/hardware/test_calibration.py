"""Load-cell calibration and the per-board calibration file."""

from __future__ import annotations

import pytest

from hardware.calibration import Calibration, CalibrationStore, default_store_path
from hardware.errors import CalibrationError


def test_from_a_tare_and_a_known_mass() -> None:
    calibration = Calibration.from_readings(tare_counts=1000, loaded_counts=41000, mass_g=100.0)
    assert calibration.grams_per_count == pytest.approx(0.0025)
    assert float(calibration.grams(21000)) == pytest.approx(50.0)
    assert int(calibration.counts(50.0)) == 21000
    assert calibration.with_tare(2000).tare_counts == 2000


def test_a_reading_that_did_not_change_is_refused() -> None:
    with pytest.raises(CalibrationError, match="did not change"):
        Calibration.from_readings(5, 5, 100.0)
    with pytest.raises(CalibrationError, match="more than 0"):
        Calibration.from_readings(5, 10, 0.0)


def test_the_store_keeps_each_board_apart(tmp_path) -> None:
    store = CalibrationStore(tmp_path / "cal" / "drone.json")
    store.save("board-a", Calibration(100, 0.002))
    store.save("board-b", Calibration(-50, 0.003))
    again = CalibrationStore(tmp_path / "cal" / "drone.json")
    assert again.load("board-a") == Calibration(100, 0.002)
    assert again.load("board-b") == Calibration(-50, 0.003)
    assert again.load("board-c") is None


def test_a_broken_store_is_a_clear_error(tmp_path) -> None:
    path = tmp_path / "drone.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CalibrationError, match="unreadable"):
        CalibrationStore(path).load("x")
    path.write_text('{"x": {"tare_counts": 1.5, "grams_per_count": 0.1}}', encoding="utf-8")
    with pytest.raises(CalibrationError, match="tare_counts"):
        CalibrationStore(path).load("x")


def test_the_store_path_can_be_moved(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PACKREF_CALIBRATION", str(tmp_path / "c.json"))
    assert default_store_path() == tmp_path / "c.json"
