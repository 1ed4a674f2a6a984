"""Frame sources, the stabilizer, and watching the committed replay."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tests.vision.helpers import FIXTURES
from vision.errors import SourceError
from vision.layout import MatSpec
from vision.reader import Reader
from vision.sources import ReplaySource
from vision.stability import Stabilizer, hidden_cells, watch

REPLAY = FIXTURES / "replay"


def mats_of(cells: str) -> list[dict]:
    return [{"id": 0, "found": True, "cells": [cells], "tags": []}]


def test_stable_after_k_equal_frames_only() -> None:
    stabilizer = Stabilizer(stable_frames=3)
    outputs = [stabilizer.update(mats_of(cells)) for cells in
               ["A.", "A.", "B.", "B.", "B.", "B.", "A.", "A.", "A."]]
    assert [index for index, output in enumerate(outputs) if output is not None] == [4, 8]
    assert outputs[4] == mats_of("B.") and outputs[8] == mats_of("A.")


def test_unknown_cells_keep_their_last_stable_value() -> None:
    stabilizer = Stabilizer(stable_frames=1)
    assert stabilizer.update(mats_of("AB")) == mats_of("AB")
    assert stabilizer.update(mats_of("?B")) is None
    assert stabilizer.update(mats_of("?C")) == mats_of("AC")


def test_a_tag_under_a_hand_is_kept_like_its_cell() -> None:
    stabilizer = Stabilizer(stable_frames=1)
    tag = {"id": 7, "row": 0, "col": 0, "rotation": 90}
    other = {"id": 8, "row": 0, "col": 1, "rotation": 0}
    assert stabilizer.update([{"id": 0, "found": True, "cells": ["XX"], "tags": [tag, other]}])
    covered = [{"id": 0, "found": True, "cells": ["?X"], "tags": [other]}]
    assert stabilizer.update(covered) is None  # nothing the hand hides is missed
    gone = [{"id": 0, "found": True, "cells": ["X."], "tags": []}]  # a seen square emptied
    assert stabilizer.update(gone) == [{"id": 0, "found": True, "cells": ["X."], "tags": []}]


def test_a_mat_lost_and_found_again_is_reported() -> None:
    stabilizer = Stabilizer(stable_frames=1)
    stabilizer.update(mats_of("A"))
    assert stabilizer.update([{"id": 0, "found": False}]) == [{"id": 0, "found": False}]


def test_stable_frames_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Stabilizer(0)


def test_replay_of_a_folder_in_name_order(tmp_path) -> None:
    for name, value in (("b.png", 2), ("a.png", 1), ("c.txt", 9)):
        if name.endswith(".png"):
            cv2.imwrite(str(tmp_path / name), np.full((4, 4, 3), value, np.uint8))
        else:
            (tmp_path / name).write_text("not a frame")
    with ReplaySource(tmp_path) as replay:
        assert [int(frame[0, 0, 0]) for frame in replay] == [1, 2]


def test_replay_of_a_video_file(tmp_path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    for value in (10, 120, 240):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    with ReplaySource(path) as replay:
        frames = list(replay)
    assert len(frames) == 3
    assert abs(int(frames[1].mean()) - 120) < 10


def test_replay_errors(tmp_path) -> None:
    with pytest.raises(SourceError, match="no such"):
        ReplaySource(tmp_path / "absent")
    with pytest.raises(SourceError, match="no images"):
        ReplaySource(tmp_path)
    bad = tmp_path / "video.mp4"
    bad.write_text("not a video")
    with pytest.raises(SourceError, match="not a video"):
        ReplaySource(bad)


def test_watching_the_replay_reports_each_stable_table_once() -> None:
    expected = json.loads((REPLAY / "expected.json").read_text())
    specs = [MatSpec(7, 4, 6, "colour"), MatSpec(8, 3, 4, "tags")]
    with ReplaySource(REPLAY) as replay:
        reports = list(watch(replay, Reader(specs), stable_frames=3))
    states = [[mat["cells"] for mat in report["mats"]] for report in reports]
    assert reports[0]["frame"] == 2
    assert states[0] == expected["before"]
    assert states[-1] == expected["after"]
    assert all(state in (expected["before"], expected["after"]) for state in states)
    assert expected["changed_at_frame"] <= reports[-1]["frame"] <= 8
    assert all(report["mats"][1]["tags"] == expected["tags"] for report in reports)


def test_watch_keeps_a_mat_whose_markers_are_hidden() -> None:
    frames = [cv2.imread(str(path)) for path in sorted(REPLAY.glob("frame-0[0-2].jpg"))]
    hidden = frames[-1].copy()
    reader = Reader([MatSpec(7, 4, 6, "colour")])
    corners = reader.detector.detect(hidden).mat_markers()
    for marker_id in (28, 29, 30):  # cover three of mat 7's four markers
        x0, y0 = corners[marker_id].min(axis=0).astype(int) - 4
        x1, y1 = corners[marker_id].max(axis=0).astype(int) + 4
        hidden[y0:y1, x0:x1] = (60, 90, 140)
    reports = list(watch([*frames, hidden, hidden, hidden], reader, stable_frames=3))
    assert len(reports) == 1 and reports[0]["frame"] == 2


def test_a_cell_flickering_between_its_value_and_unknown_does_not_break_stability() -> None:
    # a card just laid at a glare's edge: the new cells read A, then ?, then A again
    stabilizer = Stabilizer(stable_frames=3)
    assert stabilizer.update(mats_of("..")) is None
    assert stabilizer.update(mats_of("..")) is None
    assert stabilizer.update(mats_of("..")) == mats_of("..")
    outputs = [stabilizer.update(mats_of(cells)) for cells in ["AA", "A?", "?A", "AA"]]
    assert outputs[:2] == [None, None] and outputs[2] == mats_of("AA")


def test_frames_that_disagree_where_both_read_start_a_new_run() -> None:
    stabilizer = Stabilizer(stable_frames=2, cell_reads=1)
    outputs = [stabilizer.update(mats_of(cells)) for cells in ["A?", "B?", "?.", "B."]]
    assert outputs == [None, None, mats_of("B."), None]


def test_a_cell_read_in_one_frame_of_the_run_only_is_not_read() -> None:
    # a card held above the mat gives a wrong class in one frame, a hand's ? in the next
    stabilizer = Stabilizer(stable_frames=3)
    for _ in range(3):
        stabilizer.update(mats_of("...."))
    outputs = [stabilizer.update(mats_of(cells)) for cells in ["C??.", "???.", "????", "...."]]
    assert outputs[:3] == [None, None, None]  # never C: one read is not enough
    assert stabilizer.stable == mats_of("....")
    assert stabilizer.seen == mats_of("???.")  # the run read the last cell twice: read


def test_without_filling_cells_the_run_did_not_read_stay_unknown() -> None:
    stabilizer = Stabilizer(stable_frames=2, fill=False)
    stabilizer.update(mats_of("AB"))
    assert stabilizer.update(mats_of("AB")) == mats_of("AB")
    assert [stabilizer.update(mats_of(cells)) for cells in ["?C", "?C"]] == [None, mats_of("?C")]
    assert hidden_cells(stabilizer.seen) == 1


def test_cells_no_frame_of_the_run_read_keep_their_stable_value() -> None:
    stabilizer = Stabilizer(stable_frames=2)
    stabilizer.update(mats_of("AB"))
    assert stabilizer.update(mats_of("AB")) == mats_of("AB")
    assert [stabilizer.update(mats_of(cells)) for cells in ["?C", "?C"]] == [None, mats_of("AC")]


def test_when_unknown_cells_are_kept_a_cell_any_frame_read_unknown_stays_unknown() -> None:
    # the last K frames agree where both read (a glare's edge flickering beside a card
    # does not stop it being learnt), and every ? any of them read is kept: a hand held
    # over a card never passes for the empty mat
    stabilizer = Stabilizer(stable_frames=2, keep_unknown=True)
    assert [stabilizer.update(mats_of(cells)) for cells in ["A?", "?A", "?A", "B."]] == [
        None, mats_of("??"), mats_of("?A"), None]
