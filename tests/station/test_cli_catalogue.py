"""``packref catalogue learn|edit|check`` (contracts §11)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from station.catalogue.pieces import canonical_card
from station.catalogue.rehearsal import Rehearsal, laid_card
from vision.layout import MatSpec

CARDS = [["AAC", "DDC"], ["EEE", "AA#"], ["C#A", "CCA"]]


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    """A short teaching session on disk: three cards, a hand resting over the second."""
    folder = tmp_path_factory.mktemp("replay")
    spec = MatSpec(1, 8, 10, "colour")
    rng = np.random.default_rng(3)
    laid = [laid_card(squares, spec, rng) for squares in CARDS]
    laid[1].hand_held_still = True
    session = Rehearsal(spec, seed=9)
    session.write(session.plan(laid), folder / "frames")
    mats = folder / "mats.json"
    mats.write_text(json.dumps({"mats": [{"id": 4, "rows": 6, "cols": 5, "kind": "tags"},
                                         {"id": 1, "rows": 8, "cols": 10, "kind": "colour"}]}))
    return folder


def test_learn_writes_the_catalogue_and_a_one_line_summary(cli, replay, tmp_path):
    out = tmp_path / "copy.json"
    result = cli("catalogue", "learn", "small-warehouse", "--replay", replay / "frames",
                 "--mats", replay / "mats.json", "--out", out)
    assert result.status == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["recorded"] == 3 and summary["mat"] == 1 and not summary["interrupted"]
    assert summary["not_recorded"] >= 1
    assert json.loads(out.read_text()) == {"game": "small-warehouse", "cards": [
        {"id": f"c0{index + 1}", "squares": canonical_card(squares)}
        for index, squares in enumerate(CARDS)]}
    assert "card 3 recorded" in result.stderr
    assert "lay it again" in result.stderr


def test_ctrl_c_writes_what_was_recorded(cli, replay, tmp_path, monkeypatch):
    import vision.stability

    real_watch = vision.stability.watch

    def stopped(*args, **kwargs):
        for number, reading in enumerate(real_watch(*args, **kwargs)):
            if number == 3:
                raise KeyboardInterrupt
            yield reading

    monkeypatch.setattr(vision.stability, "watch", stopped)
    out = tmp_path / "copy.json"
    result = cli("catalogue", "learn", "small-warehouse", "--replay", replay / "frames",
                 "--mats", replay / "mats.json", "--out", out)
    assert result.status == 0, result.stderr
    assert json.loads(result.stdout)["interrupted"] is True
    assert len(json.loads(out.read_text())["cards"]) == 1
    assert not [path for path in tmp_path.iterdir() if path.name != "copy.json"]


@pytest.mark.parametrize(("extra", "starts"), [
    (["--mat", "4"], "--mat: small-warehouse is taught on a colour mat"),
    (["--mat", "9"], "--mat: mat 9 is not in MATS.json"),
    (["--stable", "0"], "--stable: must be at least 1"),
])
def test_learn_bad_input(cli, replay, tmp_path, extra, starts):
    result = cli("catalogue", "learn", "small-warehouse", "--replay", replay / "frames",
                 "--mats", replay / "mats.json", "--out", tmp_path / "x.json", *extra)
    result.assert_bad_input(starts)
    assert not (tmp_path / "x.json").exists()


def test_learn_without_a_tags_mat(cli, replay, tmp_path, write_json):
    mats = write_json({"mats": [{"id": 1, "rows": 8, "cols": 10, "kind": "colour"}]})
    result = cli("catalogue", "learn", "removal", "--replay", replay / "frames",
                 "--mats", mats, "--out", tmp_path / "x.json")
    result.assert_bad_input("--mats: removal is taught on a tags mat")


def test_learn_from_a_missing_replay(cli, replay, tmp_path):
    result = cli("catalogue", "learn", "small-warehouse", "--replay", tmp_path / "none",
                 "--mats", replay / "mats.json", "--out", tmp_path / "x.json")
    result.assert_bad_input()
    assert not (tmp_path / "x.json").exists()
