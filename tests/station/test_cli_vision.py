"""``packref vision read`` and ``packref vision watch`` (docs/contracts.md §6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "vision"
PHOTO = FIXTURES / "photos" / "000.jpg"
MATS = FIXTURES / "photos" / "000.mats.json"


def test_read_prints_one_line_per_image_in_order(cli) -> None:
    second = FIXTURES / "photos" / "001.jpg"
    result = cli("vision", "read", PHOTO, second, PHOTO, "--mats", MATS)
    assert result.status == 0, result.stderr
    lines = result.json_lines()
    assert [line["image"] for line in lines] == [str(PHOTO), str(second), str(PHOTO)]
    assert lines[0] == lines[2]
    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    for mat, truth_mat in zip(lines[0]["mats"], truth["mats"], strict=True):
        assert set(mat) == {"id", "found", "cells", "tags"}
        assert mat["id"] == truth_mat["id"] and mat["found"] is True
        for tag in mat["tags"]:
            assert set(tag) == {"id", "row", "col", "rotation"}


def test_a_mat_that_is_not_in_the_picture(cli, write_json) -> None:
    mats = write_json({"mats": [{"id": 11, "rows": 3, "cols": 3, "kind": "tags"}]})
    result = cli("vision", "read", PHOTO, "--mats", mats)
    assert result.status == 0
    assert result.json_lines() == [{"image": str(PHOTO), "mats": [{"id": 11, "found": False}]}]


def test_unreadable_images_get_an_error_line_and_status_2(cli, tmp_path) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 not really a jpeg")
    missing = tmp_path / "missing.jpg"
    truncated = tmp_path / "truncated.jpg"
    truncated.write_bytes(PHOTO.read_bytes()[:20000])
    result = cli("vision", "read", broken, PHOTO, missing, truncated, "--mats", MATS)
    assert result.status == 2
    lines = result.json_lines()
    assert [line["image"] for line in lines] == [str(broken), str(PHOTO), str(missing),
                                                 str(truncated)]
    for line in (lines[0], lines[2], lines[3]):
        assert set(line) == {"image", "error"}
    assert "mats" in lines[1]


def test_missing_mats_file_is_one_line_status_2(cli, tmp_path) -> None:
    result = cli("vision", "read", PHOTO, "--mats", tmp_path / "absent.json")
    assert result.status == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "no such file" in result.stderr


@pytest.mark.parametrize(("document", "message"), [
    ({}, "$: missing field 'mats'"),
    ({"mats": []}, "$.mats: must have at least 1 entry"),
    ({"mats": [{"id": 12, "rows": 3, "cols": 3, "kind": "tags"}]}, "$.mats[0].id: must be 0..11"),
    ({"mats": [{"id": 1, "rows": 0, "cols": 3, "kind": "tags"}]}, "$.mats[0].rows: must be 1..40"),
    ({"mats": [{"id": 1, "rows": 2, "cols": "3", "kind": "tags"}]}, "$.mats[0].cols: must be a"),
    ({"mats": [{"id": 1, "rows": 2, "cols": 3, "kind": "wood"}]}, "$.mats[0].kind: must be one"),
    ({"mats": [{"id": 1, "rows": 2, "cols": 3, "kind": "tags"},
               {"id": 1, "rows": 2, "cols": 3, "kind": "tags"}]}, "$.mats[1].id: mat 1 is listed"),
])
def test_bad_mats_documents_name_the_json_path(cli, write_json, document, message) -> None:
    result = cli("vision", "read", PHOTO, "--mats", write_json(document))
    assert result.status == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert len(result.stderr.strip().splitlines()) == 1


def test_watch_a_replay(cli) -> None:
    replay = FIXTURES / "replay"
    expected = json.loads((replay / "expected.json").read_text())
    result = cli("vision", "watch", "--replay", replay, "--mats", replay / "mats.json")
    assert result.status == 0, result.stderr
    lines = result.json_lines()
    assert lines[0]["frame"] == 2 and "image" not in lines[0]
    assert [mat["cells"] for mat in lines[0]["mats"]] == expected["before"]
    assert [mat["cells"] for mat in lines[-1]["mats"]] == expected["after"]
    frames = [line["frame"] for line in lines]
    assert frames == sorted(set(frames))


@pytest.mark.parametrize(("stable", "first"), [(1, 0), (2, 1)])
def test_watch_reports_after_k_frames(cli, stable, first) -> None:
    replay = FIXTURES / "replay"
    result = cli("vision", "watch", "--replay", replay, "--mats", replay / "mats.json",
                 "--stable", str(stable))
    assert result.status == 0
    assert result.json_lines()[0]["frame"] == first


def test_watch_bad_inputs(cli, tmp_path) -> None:
    replay = FIXTURES / "replay"
    missing = cli("vision", "watch", "--replay", tmp_path / "nothing", "--mats",
                  replay / "mats.json")
    assert missing.status == 2 and "no such file" in missing.stderr
    zero = cli("vision", "watch", "--replay", replay, "--mats", replay / "mats.json",
               "--stable", "0")
    assert zero.status == 2 and "--stable" in zero.stderr
    neither = cli("vision", "watch", "--mats", replay / "mats.json")
    assert neither.status == 2 and neither.stdout == ""
    both = cli("vision", "watch", "--camera", "0", "--replay", replay, "--mats",
               replay / "mats.json")
    assert both.status == 2


def test_a_frame_with_its_empty_board_photo(cli) -> None:
    games = FIXTURES / "games"
    result = cli("vision", "read", games / "removal-frame.jpg", "--mats",
                 games / "removal-frame.mats.json")
    assert result.status == 0, result.stderr
    cells = "".join(result.json_lines()[0]["mats"][0]["cells"])
    assert cells.count(".") >= 30


@pytest.mark.parametrize(("empty", "kind", "message"), [
    ("absent.jpg", "tags", "$.mats[0].empty: "),
    ("000.jpg", "tags", "$.mats[0].empty: mat 9: not found"),
    ("000.jpg", "colour", "$.mats[0].empty: only a tags mat"),
])
def test_bad_empty_board_photos(cli, tmp_path, empty, kind, message) -> None:
    import shutil

    shutil.copy(PHOTO, tmp_path / "000.jpg")
    mats = tmp_path / "mats.json"
    mats.write_text(json.dumps({"mats": [{"id": 9, "rows": 6, "cols": 8, "kind": kind,
                                          "empty": empty}]}))
    result = cli("vision", "read", PHOTO, "--mats", mats)
    assert result.status == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)


def _calibration_replay(folder: Path) -> Path:
    import cv2
    import numpy as np

    from devkit.vision.realistic import calibration_views
    from vision.layout import MatSpec

    folder.mkdir()
    for index, frame in enumerate(calibration_views(np.random.default_rng(5),
                                                    MatSpec(0, 6, 8, "colour"), 7, -0.28)):
        cv2.imwrite(str(folder / f"{index:02d}.png"), frame)
    return folder


def test_calibrate_a_replay_then_read_with_it(cli, write_json, tmp_path) -> None:
    replay = _calibration_replay(tmp_path / "views")
    mats = write_json({"mats": [{"id": 0, "rows": 6, "cols": 8, "kind": "colour"}]})
    out = tmp_path / "camera.json"
    result = cli("vision", "calibrate", "--replay", replay, "--mats", mats, "--out", out)
    assert result.status == 0, result.stderr
    summary = result.json_lines()[0]
    assert summary["views"] == 7 and summary["rms_px"] < 1.0
    written = json.loads(out.read_text())
    assert set(written) >= {"camera_matrix", "distortion", "image_size"}
    read = cli("vision", "read", replay / "03.png", "--mats", mats, "--camera-calibration", out)
    assert read.status == 0, read.stderr
    mat = read.json_lines()[0]["mats"][0]
    assert mat["found"] and set("".join(mat["cells"])) == {"."}


def test_calibrate_with_too_few_views_writes_nothing(cli, write_json, tmp_path) -> None:
    mats = write_json({"mats": [{"id": 0, "rows": 6, "cols": 8, "kind": "colour"}]})
    out = tmp_path / "camera.json"
    result = cli("vision", "calibrate", "--replay", FIXTURES / "replay", "--mats", mats,
                 "--out", out)
    result.assert_bad_input()
    assert "views" in result.stderr and not out.exists()


def test_a_bad_camera_calibration_names_its_place(cli, write_json) -> None:
    bad = write_json({"camera_matrix": [1, 0, 0], "distortion": [0, 0, 0, 0, 0],
                      "image_size": [1920, 1080]})
    result = cli("vision", "read", PHOTO, "--mats", MATS, "--camera-calibration", bad)
    result.assert_bad_input()
    assert "$.camera_matrix" in result.stderr


def test_a_zero_byte_image_gets_its_error_line_and_the_rest_are_read(cli, tmp_path) -> None:
    """An empty file (a photo whose copy failed) made OpenCV assert and ended the whole
    command; contract §6: its error line, the images after it read, status 2."""
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    second = FIXTURES / "photos" / "001.jpg"
    result = cli("vision", "read", PHOTO, empty, second, "--mats", MATS)
    assert result.status == 2, result.stderr
    lines = result.json_lines()
    assert [line["image"] for line in lines] == [str(PHOTO), str(empty), str(second)]
    assert lines[1] == {"image": str(empty), "error": "an empty file (0 bytes), not an image"}
    assert "mats" in lines[0] and "mats" in lines[2]
    assert result.stderr == ""
