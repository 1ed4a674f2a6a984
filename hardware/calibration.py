"""Load-cell calibration: the tare reading and grams per count, kept per board in a file.

The board only ever sends raw HX711 counts; the host turns them into grams with
the calibration of that board (its id comes in the HELLO message).

Example::

    >>> calibration = Calibration.from_readings(tare_counts=8000, loaded_counts=50000,
    ...                                         mass_g=100.0)
    >>> calibration
    Calibration(tare_counts=8000, grams_per_count=0.0023809524)
    >>> round(float(calibration.grams(29000)), 1)
    50.0
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hardware.errors import CalibrationError


def default_store_path() -> Path:
    """``$PACKREF_CALIBRATION``, else ``~/.config/packref/drone-calibration.json``."""
    override = os.environ.get("PACKREF_CALIBRATION")
    if override:
        return Path(override)
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "packref" / "drone-calibration.json"


@dataclass(frozen=True)
class Calibration:
    """``grams = (counts - tare_counts) * grams_per_count``."""

    tare_counts: int
    grams_per_count: float

    def __repr__(self) -> str:
        return (f"Calibration(tare_counts={self.tare_counts}, "
                f"grams_per_count={self.grams_per_count:.8g})")

    @classmethod
    def from_readings(cls, tare_counts: int, loaded_counts: int, mass_g: float) -> Calibration:
        """From the mean reading empty and with a known mass on the platform."""
        if mass_g <= 0:
            raise CalibrationError("the known mass must be more than 0 g")
        if loaded_counts == tare_counts:
            raise CalibrationError("the reading did not change with the known mass on")
        return cls(int(tare_counts), mass_g / (loaded_counts - tare_counts))

    def with_tare(self, tare_counts: int) -> Calibration:
        return Calibration(int(tare_counts), self.grams_per_count)

    def grams(self, counts):
        """Counts (a number or an array) in grams-force."""
        return (np.asarray(counts, dtype=float) - self.tare_counts) * self.grams_per_count

    def counts(self, grams) -> np.ndarray:
        """Grams-force back to the nearest raw counts."""
        return np.round(np.asarray(grams, dtype=float) / self.grams_per_count
                        + self.tare_counts).astype(np.int64)

    def to_json(self) -> dict:
        return {"tare_counts": self.tare_counts, "grams_per_count": self.grams_per_count}

    @classmethod
    def from_json(cls, document: dict) -> Calibration:
        tare = document["tare_counts"]
        scale = document["grams_per_count"]
        if isinstance(tare, bool) or not isinstance(tare, int):
            raise ValueError("tare_counts must be a whole number")
        if isinstance(scale, bool) or not isinstance(scale, int | float) or scale == 0:
            raise ValueError("grams_per_count must be a non-zero number")
        return cls(tare, float(scale))


class CalibrationStore:
    """Calibrations by board id in one small JSON file.

    Example::

        store = CalibrationStore()          # ~/.config/packref/drone-calibration.json
        store.save("e6614c311b7a2f35", Calibration(8123, 0.00241))
        store.load("e6614c311b7a2f35")
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_store_path()

    def __repr__(self) -> str:
        return f"CalibrationStore({str(self.path)!r})"

    def _read(self) -> dict:
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CalibrationError(f"{self.path}: unreadable calibration file ({error})") from None
        if not isinstance(document, dict):
            raise CalibrationError(f"{self.path}: must hold a JSON object")
        return document

    def load(self, board_id: str) -> Calibration | None:
        """The board's calibration, or None when it was never calibrated."""
        entry = self._read().get(board_id)
        if entry is None:
            return None
        try:
            return Calibration.from_json(entry)
        except (TypeError, KeyError, ValueError) as error:
            raise CalibrationError(f"{self.path}: board {board_id}: {error}") from None

    def save(self, board_id: str, calibration: Calibration) -> None:
        """Store the board's calibration (atomically: a crash never leaves half a file)."""
        document = self._read()
        document[board_id] = calibration.to_json()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        temporary.replace(self.path)
