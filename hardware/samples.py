"""Sensor samples of the drone's platform, and the CSV form of them (docs/formats.md §7).

A :class:`Samples` holds one row per sample: ``t`` seconds, ``force_g`` the
tared load-cell reading in grams-force, ``ax, ay, az`` the accelerometer in
m/s² (gravity included) and ``gx, gy, gz`` the gyroscope in degrees per second.

Example::

    >>> samples = Samples.from_rows([(0.0, 0.0, 0, 0, 9.81, 0, 0, 0),
    ...                             (0.01, 0.1, 0, 0, 9.81, 0, 0, 0)])
    >>> samples
    <Samples 2 rows, 0.01 s>
    >>> print(samples.to_csv().splitlines()[0])
    t,force_g,ax,ay,az,gx,gy,gz
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hardware.errors import SampleFileError

COLUMNS: tuple[str, ...] = ("t", "force_g", "ax", "ay", "az", "gx", "gy", "gz")
HEADER = ",".join(COLUMNS)


@dataclass(frozen=True, eq=False)
class Samples:
    """Columns of sensor samples as numpy arrays of equal length, ``t`` rising."""

    t: np.ndarray
    force_g: np.ndarray
    ax: np.ndarray
    ay: np.ndarray
    az: np.ndarray
    gx: np.ndarray
    gy: np.ndarray
    gz: np.ndarray

    def __repr__(self) -> str:
        return f"<Samples {len(self)} rows, {self.duration:.2f} s>"

    def __len__(self) -> int:
        return len(self.t)

    @property
    def duration(self) -> float:
        """Seconds from the first sample to the last."""
        return float(self.t[-1] - self.t[0]) if len(self) else 0.0

    @classmethod
    def from_rows(cls, rows: Iterable[Sequence[float]]) -> Samples:
        """Samples from ``(t, force_g, ax, ay, az, gx, gy, gz)`` tuples."""
        table = np.asarray(list(rows), dtype=float).reshape(-1, len(COLUMNS))
        return cls(*(np.ascontiguousarray(table[:, index]) for index in range(len(COLUMNS))))

    def columns(self) -> list[np.ndarray]:
        """The arrays in :data:`COLUMNS` order."""
        return [getattr(self, name) for name in COLUMNS]

    def to_csv(self, digits: int = 4) -> str:
        """The samples as CSV text with the contract's header."""
        out = io.StringIO()
        out.write(HEADER + "\n")
        table = np.column_stack(self.columns())
        np.savetxt(out, table, fmt=f"%.{digits}f", delimiter=",")
        return out.getvalue()


def read_csv(path: str | Path, finite_only: bool = True) -> Samples:
    """Read a sample CSV; a bad file raises :class:`SampleFileError` naming the line and field.
    ``finite_only=False`` keeps a sensor's NaN or infinity (``t`` must still be a number) for
    :func:`hardware.screen.screen_impossible` to report as the sensor's fault."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SampleFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SampleFileError(f"{path}: is a directory, not a sample file") from None
    except UnicodeDecodeError:
        raise SampleFileError(f"{path}: not UTF-8 text (nor a raw capture)") from None
    except OSError as error:
        raise SampleFileError(f"{path}: cannot read ({error.strerror})") from None
    return parse_csv(text, str(path), finite_only)


def parse_csv(text: str, name: str = "<csv>", finite_only: bool = True) -> Samples:
    """Parse sample CSV text; errors name ``name``, the line and the field."""
    lines = text.splitlines()
    if not lines or lines[0].strip().lstrip("\ufeff") != HEADER:
        found = lines[0].strip()[:60] if lines else "an empty file"
        raise SampleFileError(f"{name}: line 1: header must be '{HEADER}', found {found!r}")
    rows: list[list[float]] = []
    previous_t = -math.inf
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        row = _parse_row(line, number, name, finite_only)
        if row[0] <= previous_t:
            raise SampleFileError(
                f"{name}: line {number}: field t: must rise ({row[0]:g} after {previous_t:g})"
            )
        previous_t = row[0]
        rows.append(row)
    if not rows:
        raise SampleFileError(f"{name}: no samples after the header")
    return Samples.from_rows(rows)


def _parse_row(line: str, number: int, name: str, finite_only: bool = True) -> list[float]:
    fields = line.split(",")
    if len(fields) != len(COLUMNS):
        raise SampleFileError(
            f"{name}: line {number}: has {len(fields)} fields, the header has {len(COLUMNS)}"
        )
    row = []
    for column, field in zip(COLUMNS, fields, strict=True):
        try:
            value = float(field)
        except ValueError:
            raise SampleFileError(
                f"{name}: line {number}: field {column}: not a number: {field.strip()[:30]!r}"
            ) from None
        if not math.isfinite(value) and (finite_only or column == "t"):
            raise SampleFileError(f"{name}: line {number}: field {column}: must be finite")
        row.append(value)
    return row
