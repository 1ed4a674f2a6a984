"""The photoshoot image model: photos look like the kit and their truth is what is drawn."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from devkit.vision.photoshoot import (
    Pacing,
    camera,
    kit,
    photo,
    scene,
    table_frames,
    teaching_sequence,
)
from devkit.vision.photoshoot import __main__ as cli
from devkit.vision.photoshoot.render import Frame, render

DETECTOR = cv2.aruco.ArucoDetector(kit.TAG_DICT, cv2.aruco.DetectorParameters())


def detect(image: np.ndarray) -> dict[int, np.ndarray]:
    corners, ids, _ = DETECTOR.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    return {} if ids is None else {int(i): c[0] for i, c in zip(ids.ravel(), corners, strict=True)}


@pytest.fixture(scope="module")
def plain_without_hands():
    for seed in range(40):
        shot = photo(seed, "plain")
        if shot.truth["conditions"]["hands"] == 0:
            return shot
    pytest.fail("no plain photo without hands in 40 seeds")


def test_a_photo_is_a_1080p_colour_image_with_truth_for_every_mat():
    shot = photo(3, "real")
    assert shot.image.shape == (1080, 1920, 3) and shot.image.dtype == np.uint8
    assert [m["id"] for m in shot.truth["mats"]] == [m["id"] for m in shot.mats_json["mats"]]
    for mat, spec in zip(shot.truth["mats"], shot.mats_json["mats"], strict=True):
        assert len(mat["cells"]) == len(mat["occluded"]) == spec["rows"]
        assert {len(row) for row in mat["cells"] + mat["occluded"]} == {spec["cols"]}
        alphabet = set(".#ABCDE") if spec["kind"] == "colour" else set(".X")
        assert set("".join(mat["cells"])) <= alphabet
        assert set("".join(mat["occluded"])) <= set(".po")
    assert shot.truth["conditions"]["cell_px"] >= 36
    assert 60 <= shot.truth["conditions"]["jpeg"] <= 95


def test_the_same_seed_gives_the_same_photo_and_modes_differ():
    assert photo(5, "plain").jpeg == photo(5, "plain").jpeg
    assert photo(5, "plain").jpeg != photo(5, "real").jpeg
    with pytest.raises(ValueError, match="mode"):
        photo(5, "glossy")


def test_markers_and_tags_decode_where_the_truth_puts_them(plain_without_hands):
    found = detect(plain_without_hands.image)
    for mat in plain_without_hands.truth["mats"]:
        assert {4 * mat["id"] + k for k in range(4)} <= set(found), mat["id"]
    truth_tags = {t["id"] for m in plain_without_hands.truth["mats"] for t in m["tags"]}
    assert truth_tags <= set(found)
    assert {i for i in found if i >= 50} == truth_tags


def test_a_tag_turned_clockwise_has_its_first_corner_turned_with_it():
    for rotation, corner in [(0, (0, 0)), (90, (1, 0)), (180, (1, 1)), (270, (0, 1))]:
        piece = kit.Piece(["#"], 0, 0, 77, (0, 0), rotation, art_seed=1)
        albedo, _ = kit.piece_image(piece)
        image = (kit.textures.linear_to_srgb(albedo) * 255).astype(np.uint8)
        canvas = cv2.copyMakeBorder(image, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(255,) * 3)
        first = detect(canvas[..., ::-1].copy())[77][0]
        middle = np.array(canvas.shape[1::-1]) / 2
        assert tuple((first > middle).astype(int)) == corner, rotation


def test_cells_under_a_hand_are_occluded_and_cells_far_from_it_are_not():
    rng = np.random.default_rng(4)
    setup = scene.sample_setup(rng, "plain", [kit.MatSpec(0, 8, 10, "colour")])
    placed = setup.mats[0]
    contents = {0: scene.warehouse_contents(rng, placed.spec, False, count=4)}
    bare = render(setup, Frame(contents), np.random.default_rng(1), "bare.jpg")
    hand = scene.hand_towards(rng, setup, placed, 4.5, 5.5, pose="flat", lift=10)
    covered = render(setup, Frame(contents, [hand]), np.random.default_rng(1), "hand.jpg")
    occluded = covered.truth["mats"][0]["occluded"]
    assert occluded[4][5] == "o"
    assert all(line == "." * 10 for line in bare.truth["mats"][0]["occluded"])
    assert covered.truth["mats"][0]["cells"] == bare.truth["mats"][0]["cells"]
    centre = setup.camera.image_points(placed.grid_world(np.array([4.5]), np.array([5.5])))[0]
    x, y = np.round(centre).astype(int)
    patch = np.s_[y - 8:y + 8, x - 8:x + 8]
    assert np.abs(covered.image[patch].astype(int) - bare.image[patch]).mean() > 20
    hidden = sum(line.count("o") + line.count("p") for line in occluded)
    assert 0 < hidden < 80  # a hand hides some cells, not the whole mat


def test_lens_profiles_stay_inside_the_spec_envelope():
    rho = np.linspace(camera.corner_rho() / 3, camera.corner_rho(), 50)
    lenses = [camera.pick_lens(np.random.default_rng(seed), 1.0) for seed in range(12)]
    assert len({lens.name for lens in lenses}) >= 3
    for lens in lenses:
        assert np.all(lens.delta(rho) >= camera.K1_LIMIT * rho ** 2 - 1e-6), lens.name
        assert lens.delta(rho).min() < -0.01  # and it does bend lines outward somewhere


def test_a_card_held_above_the_mat_is_not_laid_yet(tmp_path):
    empty = ["." * 10] * 8
    laid = ["." * 10] * 3 + ["...AAC....", "...DDC...."] + ["." * 10] * 3
    states = [{"mats": [{"id": 0, "rows": 8, "cols": 10, "kind": "colour", "cells": cells}]}
              for cells in (empty, laid)]
    truth = table_frames(states, Pacing(hold=(1, 1), linger=(1, 1), hover=(1, 1), edge_glare=0),
                         rng=2, mode="plain", out=tmp_path)
    phases = [(f["phase"], f["state"], f["laid"]) for f in truth["frames"]]
    assert phases == [("still", 0, True), ("hover", 0, False), ("linger", 1, True),
                      ("still", 1, True)]
    hover, linger = truth["frames"][1], truth["frames"][2]
    assert hover["mats"][0]["cells"] == empty
    assert any(ch != "." for ch in "".join(hover["mats"][0]["occluded"][3:5]))
    assert linger["mats"][0]["cells"] == laid
    assert sorted(p.name for p in tmp_path.glob("*.jpg")) == [f"{i:04d}.jpg" for i in range(4)]
    assert json.loads((tmp_path / "mats.json").read_text())["mats"][0]["rows"] == 8


def test_teaching_lays_each_item_alone_and_takes_it_away(tmp_path):
    truth = teaching_sequence("removal", 3, "plain", tmp_path, count=1, still=(3, 3))
    (item,) = truth["items"]
    assert 50 <= item["tag"] < 125
    stills = [f for f in truth["frames"] if f["phase"] == "still"]
    assert len(stills) == 3
    for frame in stills:
        (mat,) = frame["mats"]
        assert [t["id"] for t in mat["tags"]] == [item["tag"]]
        assert sum(row.count("X") for row in mat["cells"]) == "".join(item["shape"]).count("#")
    assert all(not f["mats"][0]["tags"] for f in truth["frames"] if f["phase"] == "empty")
    assert len(list(tmp_path.glob("*.jpg"))) == len(truth["frames"])


def test_the_command_writes_photos_truth_and_mats(tmp_path, capsys):
    assert cli.main(["--out", str(tmp_path), "--mode", "plain", "--seeds", "7:8"]) == 0
    assert json.loads(capsys.readouterr().out)["photos"] == 1
    truth = json.loads((tmp_path / "007.truth.json").read_text())
    assert truth["image"] == "007.jpg"
    assert cv2.imread(str(tmp_path / "007.jpg")).shape == (1080, 1920, 3)
    mats = json.loads((tmp_path / "mats.json").read_text())
    own = tmp_path / "007.mats.json"
    listed = json.loads(own.read_text()) if own.exists() else mats
    assert [m["id"] for m in listed["mats"]] == [m["id"] for m in truth["mats"]]
    with pytest.raises(SystemExit):
        cli.main(["--out", str(tmp_path), "--seeds", "9:3"])
