"""The committed vision fixtures: how each one is rendered, so anyone can re-render them.

``python -m devkit.vision.fixture_sets fixtures/vision`` rewrites every image and
truth file under ``fixtures/vision`` (deterministic: fixed seeds). The scenes
mimic each game's use of the kit; the tag ids are arbitrary (tests pass their
own tag → piece mappings).

Example::

    >>> sorted(GAME_SCENES)
    ['moving-day', 'pick-n-packers', 'removal', 'small-warehouse']
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.layout import MatSpec
from vision.render import MatContent, Photo, Scene, make_scene, photograph, random_colour_cells

JPEG_QUALITY = 80


def _small_warehouse(rng: np.random.Generator) -> Scene:
    specs = [(MatSpec(0, 4, 6, "colour"), 20.0), (MatSpec(1, 3, 7, "colour"), 20.0)]
    scene = make_scene(rng, specs)
    for mat in scene.mats:
        mat.content.cells = random_colour_cells(mat.content.spec, rng)
    return scene


def _moving_day(rng: np.random.Generator) -> Scene:
    specs = [(MatSpec(2, 4, 1, "tags"), 20.0), (MatSpec(3, 3, 2, "tags"), 20.0),
             (MatSpec(4, 2, 3, "tags"), 20.0)]
    scene = make_scene(rng, specs)
    boxes = {2: [(0, 0), (2, 0)], 3: [(0, 1), (1, 0), (2, 1)], 4: [(1, 2)]}
    tag_id = 120
    for mat in scene.mats:
        content = MatContent.empty(mat.content.spec)
        for row, col in boxes[content.spec.id]:
            content.place_piece([(row, col)], (tag_id, row, col, 90 * (tag_id % 4)), tag_id)
            tag_id += 1
        content.seed = mat.content.seed
        mat.content = content
    return scene


def _removal(rng: np.random.Generator) -> Scene:
    scene = make_scene(rng, [(MatSpec(5, 6, 8, "tags"), 20.0)])
    content = MatContent.empty(scene.mats[0].content.spec)
    content.place_piece([(0, 0), (0, 1), (1, 0), (1, 1)], (60, 0, 0, 0), 1)
    content.place_piece([(2, 3), (3, 3), (4, 3)], (61, 2, 3, 180), 2)
    content.place_piece([(1, 5), (1, 6), (2, 6)], (62, 1, 5, 90), 3)
    content.place_piece([(5, 0), (5, 1)], (63, 5, 0, 270), 4)
    content.seed = scene.mats[0].content.seed
    scene.mats[0].content = content
    return scene


def _pick_n_packers(rng: np.random.Generator) -> Scene:
    scene = make_scene(rng, [(MatSpec(6, 3, 3, "tags"), 60.0)])
    content = MatContent.empty(scene.mats[0].content.spec)
    for number in range(9):
        row, col = divmod(number, 3)
        tag = (200, row, col, 0) if number == 4 else (180 + number, row, col, 0)
        content.place_piece([(row, col)], tag, number + 10)
    content.seed = scene.mats[0].content.seed
    scene.mats[0].content = content
    return scene


#: Each game's fixture scene, from a seeded generator.
GAME_SCENES: dict[str, Callable[[np.random.Generator], Scene]] = {
    "small-warehouse": _small_warehouse,
    "moving-day": _moving_day,
    "removal": _removal,
    "pick-n-packers": _pick_n_packers,
}


def _save(photo: Photo, image: Path) -> None:
    cv2.imwrite(str(image), photo.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    image.with_suffix(".json").write_text(json.dumps(photo.truth, indent=1) + "\n")


def _mats_document(truth: dict[str, Any]) -> dict[str, Any]:
    return {"mats": [{key: mat[key] for key in ("id", "rows", "cols", "kind")}
                     for mat in truth["mats"]]}


def write_photos(out: Path, count: int = 5, seed: int = 11) -> None:
    """Random photos with truth (``NNN.jpg``, ``NNN.json``) and ``NNN.mats.json``."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for index in range(count):
        photo = photograph(make_scene(rng), rng)
        _save(photo, out / f"{index:03d}.jpg")
        (out / f"{index:03d}.mats.json").write_text(json.dumps(_mats_document(photo.truth)))


def write_games(out: Path, seed: int = 21) -> None:
    """One photo per game and its ``MATS.json``; a hand is in each but the shop's
    (whose card-sized cells a hand would mostly cover)."""
    out.mkdir(parents=True, exist_ok=True)
    for offset, (name, build) in enumerate(GAME_SCENES.items()):
        rng = np.random.default_rng(seed + offset)
        photo = photograph(build(rng), rng, hands=0 if name == "pick-n-packers" else 1)
        _save(photo, out / f"{name}.jpg")
        (out / f"{name}.mats.json").write_text(json.dumps(_mats_document(photo.truth)))


def write_frame_pair(out: Path, seed: int = 41) -> None:
    """A Removal truck board in its frame (mat 9): ``removal-frame-empty.jpg`` (the
    calibration photo of the empty board) and ``removal-frame.jpg`` (tiles laid, a hand)."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    scene = make_scene(rng, [(MatSpec(9, 6, 8, "tags"), 20.0)])
    empty = MatContent.empty(scene.mats[0].content.spec)
    empty.seed, empty.board_seed = scene.mats[0].content.seed, 7
    scene.mats[0].content = empty
    _save(photograph(scene, rng, hands=0), out / "removal-frame-empty.jpg")
    laid = MatContent.empty(empty.spec)
    laid.seed, laid.board_seed = empty.seed, empty.board_seed
    laid.place_piece([(1, 1), (1, 2), (2, 1)], (70, 1, 1, 0), 1)
    laid.place_piece([(3, 5), (4, 5)], (71, 3, 5, 180), 2)
    laid.place_piece([(5, 2), (5, 3), (5, 4)], (72, 5, 2, 0), 3)
    scene.mats[0].content = laid
    _save(photograph(scene, rng, hands=0), out / "removal-frame.jpg")
    (out / "removal-frame.mats.json").write_text(json.dumps(
        {"mats": [{"id": 9, "rows": 6, "cols": 8, "kind": "tags",
                   "empty": "removal-frame-empty.jpg"}]}))


def write_replay(out: Path, seed: int = 31) -> None:
    """Nine frames: a card is laid (a hand in frames 3–4), then the table is still.

    Noise is kept low (σ ≤ 3, like a video's denoised frames) to keep the files small.

    ``expected.json`` holds the two table states and the frames that show each.
    """
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    scene = make_scene(rng, [(MatSpec(7, 4, 6, "colour"), 20.0), (MatSpec(8, 3, 4, "tags"), 20.0)])
    colour = scene.mats[0].content
    colour.cells = ["A.B...", "..C.#.", "D.....", "....EE"]
    tags = MatContent.empty(scene.mats[1].content.spec)
    tags.seed = scene.mats[1].content.seed
    scene.mats[1].content = tags
    tags.place_piece([(1, 1), (1, 2)], (77, 1, 1, 90), 5)
    before = [colour.cells, tags.cells]
    frames = []
    for index in range(9):
        if index == 3:
            colour.cells = ["A.B...", "..C.#.", "D..B..", "....EE"]
        photo = photograph(scene, rng, hands=1 if index in (3, 4) else 0, max_noise=3.0)
        _save(photo, out / f"frame-{index:02d}.jpg")
        out.joinpath(f"frame-{index:02d}.json").unlink()
        frames.append(index)
    expected = {"before": before, "after": [colour.cells, tags.cells],
                "tags": [{"id": 77, "row": 1, "col": 1, "rotation": 90}],
                "changed_at_frame": 3, "hands_in_frames": [3, 4]}
    (out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    (out / "mats.json").write_text(json.dumps(_mats_document(
        {"mats": [{"id": 7, "rows": 4, "cols": 6, "kind": "colour"},
                  {"id": 8, "rows": 3, "cols": 4, "kind": "tags"}]})))


def main(argv: list[str] | None = None) -> None:
    """``python -m devkit.vision.fixture_sets OUT``: re-render every vision fixture into OUT."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("out", type=Path)
    arguments = parser.parse_args(argv)
    write_photos(arguments.out / "photos")
    write_games(arguments.out / "games")
    write_frame_pair(arguments.out / "games")
    write_replay(arguments.out / "replay")


if __name__ == "__main__":
    main()
