"""The CSV form of samples (docs/formats.md §7) and its one-line errors."""

from __future__ import annotations

import pytest

from hardware.errors import SampleFileError
from hardware.samples import HEADER, Samples, parse_csv, read_csv

ROW = "0.0,1.0,0.0,0.0,9.81,0.0,0.0,0.0"


def test_round_trip_keeps_every_column() -> None:
    samples = Samples.from_rows([(0.0, 1.5, 0.1, -0.2, 9.8, 1.0, 2.0, 3.0),
                                 (0.01, 1.25, 0.0, 0.0, 9.81, 0.0, 0.0, -1.0)])
    again = parse_csv(samples.to_csv())
    assert [list(column) for column in again.columns()] == \
        [list(column) for column in samples.columns()]
    assert repr(again) == "<Samples 2 rows, 0.01 s>"


@pytest.mark.parametrize(("text", "message"), [
    ("", "x.csv: line 1: header must be"),
    ("t,force,ax\n", "x.csv: line 1: header must be"),
    (HEADER + "\n", "x.csv: no samples after the header"),
    (HEADER + "\n" + ROW + "\n0.1,1,0,0,abc,0,0,0\n", "x.csv: line 3: field az: not a number"),
    (HEADER + "\n" + ROW + "\n0.1,1,0\n", "x.csv: line 3: has 3 fields, the header has 8"),
    (HEADER + "\n" + ROW + "\n" + ROW + "\n", "x.csv: line 3: field t: must rise"),
    (HEADER + "\n" + ROW.replace("1.0", "nan", 1) + "\n", "x.csv: line 2: field force_g: must"),
])
def test_bad_csv_names_the_line_and_field(text: str, message: str) -> None:
    with pytest.raises(SampleFileError) as raised:
        parse_csv(text, "x.csv")
    assert str(raised.value).startswith(message)
    assert "\n" not in str(raised.value)


def test_a_byte_order_mark_and_blank_lines_are_fine() -> None:
    samples = parse_csv("\ufeff" + HEADER + "\n" + ROW + "\n\n0.02,1,0,0,9.81,0,0,0\n")
    assert len(samples) == 2


def test_missing_and_binary_files(tmp_path) -> None:
    with pytest.raises(SampleFileError, match="no such file"):
        read_csv(tmp_path / "absent.csv")
    binary = tmp_path / "noise.csv"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(SampleFileError, match="not UTF-8"):
        read_csv(binary)
