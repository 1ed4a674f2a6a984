"""``packref kit``: true-scale PDFs, previews the reader can read, distinct mat numbers."""

from __future__ import annotations

import json
import re

import cv2
import pytest

from vision.layout import MatSpec
from vision.reader import Reader


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    from station.cli import main

    out = tmp_path_factory.mktemp("kit")
    assert main(["kit", "--out", str(out), "--dpmm", "2"]) == 0
    return out


def test_kit_writes_pdfs_previews_and_mats_files(kit) -> None:
    for game in ("small-warehouse", "moving-day", "removal", "pick-n-packers"):
        assert (kit / f"{game}.pdf").read_bytes().startswith(b"%PDF-1.4")
        document = json.loads((kit / f"mats-{game}.json").read_text())
        assert document["mats"]
    assert (kit / "tags.pdf").exists()
    assert list((kit / "png").glob("tags-*.png"))


def test_pdf_pages_are_true_size_and_the_xref_is_right(kit) -> None:
    pdf = (kit / "small-warehouse.pdf").read_bytes()
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    width_mm = float(boxes[0][0]) * 25.4 / 72
    assert width_mm == pytest.approx((10 + 3) * 20, abs=0.6)  # 10 cells + border + margin
    start = int(re.search(rb"startxref\n(\d+)", pdf).group(1))
    assert pdf[start:start + 4] == b"xref"
    offsets = [int(v) for v in re.findall(rb"(\d{10}) 00000 n", pdf)]
    assert all(pdf[offset:].split(b" ", 1)[0].isdigit() for offset in offsets)
    assert all(re.match(rb"\d+ 0 obj", pdf[offset:offset + 12]) for offset in offsets)


def test_every_catalogue_piece_has_a_distinct_tag(kit) -> None:
    listing = json.loads((kit / "kit.json").read_text())
    ids = [tag["id"] for tag in listing["tags"]]
    assert len(ids) == len(set(ids)) and min(ids) >= 50 and max(ids) <= 249
    labels = " ".join(tag["label"] for tag in listing["tags"])
    assert "drone" in labels and "box-01" in labels and "shop-0" in labels


def test_the_reader_reads_a_printed_mat_preview(kit) -> None:
    image = cv2.imread(str(kit / "png" / "small-warehouse-mat-1.png"))
    mats = Reader([MatSpec(1, 8, 10, "colour")]).read(image)
    assert mats[0]["found"] is True
    assert mats[0]["cells"] == ["." * 10] * 8


def test_two_tables_get_distinct_mat_numbers(cli, tmp_path) -> None:
    numbers = []
    for table in (0, 1):
        result = cli("kit", "--out", tmp_path / f"t{table}", "--dpmm", "2", "--table",
                     str(table), "--tables", "2")
        assert result.status == 0, result.stderr
        numbers.append({mat["id"] for mat in result.json()["mats"]})
    assert not numbers[0] & numbers[1]


@pytest.mark.parametrize("arguments", [["--cell-mm", "0"], ["--table", "2", "--tables", "2"],
                                       ["--tables", "13"], ["--dpmm", "500"]])
def test_bad_kit_options_are_status_2(cli, tmp_path, arguments) -> None:
    result = cli("kit", "--out", tmp_path / "k", *arguments)
    assert result.status == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("paper", ["a3", "A4", ""])
def test_a_bad_paper_name_is_status_2(cli, tmp_path, paper) -> None:
    result = cli("kit", "--out", tmp_path / "k", "--paper", paper)
    assert result.status == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "a4 or letter" in result.stderr


def test_kit_on_letter_paper(cli, tmp_path) -> None:
    result = cli("kit", "--out", tmp_path / "k", "--dpmm", "2", "--paper", "letter")
    assert result.status == 0, result.stderr
    for name in ("small-warehouse.pdf", "pick-n-packers.pdf", "tags.pdf"):
        pdf = (tmp_path / "k" / name).read_bytes()
        boxes = set(re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf))
        assert boxes == {(b"612.000", b"792.000")}
