"""A reading drawn on its frame: mats outlined where the reader found them, each cell's class at
its centre (``?`` in red), tags with their ids, and a legend naming the mats not found."""

from __future__ import annotations

import numpy as np
import pytest

from vision.layout import MatSpec
from vision.lens import RadialLens
from vision.mats import MatPose
from vision.overlay import (
    FOUND,
    NOT_FOUND,
    OUTLINE_STEPS,
    UNKNOWN,
    draw_reading,
    mat_geometry,
    observation_geometry,
    scaled,
)
from vision.reader import Reader
from vision.render import make_scene, photograph

SPECS = [MatSpec(0, 6, 8, "tags"), MatSpec(1, 4, 6, "colour")]
MISSING = MatSpec(2, 3, 3, "tags")  # looked for, never laid


@pytest.fixture(scope="module")
def read_photo() -> tuple[np.ndarray, list[dict], dict]:
    """A photo of two mats with a hand over one, read with a third mat that is not there."""
    rng = np.random.default_rng(5)
    scene = make_scene(rng, [(spec, 25.0) for spec in SPECS])
    image = photograph(scene, rng, hands=1).image
    observation = Reader([*SPECS, MISSING]).observe(image)
    return image, observation.mats, observation_geometry([*SPECS, MISSING], observation)


def close_to(image: np.ndarray, point: np.ndarray, colour: tuple[int, int, int],
             reach: int = 2, tolerance: int = 40) -> bool:
    """Whether a pixel within ``reach`` of ``point`` has ``colour``."""
    x, y = np.round(point).astype(int)
    patch = image[max(y - reach, 0):y + reach + 1, max(x - reach, 0):x + reach + 1].astype(int)
    return bool((np.abs(patch - np.array(colour)).max(axis=-1) <= tolerance).any())


def red_share(image: np.ndarray, centre: np.ndarray, cell: float) -> float:
    """The share of the middle of a cell painted in the ``?`` red."""
    x, y = np.round(centre).astype(int)
    half = max(2, round(cell * 0.25))
    patch = image[y - half:y + half + 1, x - half:x + half + 1].astype(int)
    return float((np.abs(patch - np.array(UNKNOWN)).max(axis=-1) <= 30).mean())


def test_geometry_puts_the_cells_where_the_pose_does(read_photo) -> None:
    _image, mats, geometry = read_photo
    assert [mat["found"] for mat in mats] == [True, True, False]
    assert sorted(geometry) == [0, 1]  # the missing mat has no place in the frame
    spec = SPECS[0]
    where = geometry[0]
    assert where.centres.shape == (6, 8, 2) and where.lattice.shape == (7, 9, 2)
    # each centre is the middle of its cell's four corners (a photo's perspective is mild)
    middles = (where.lattice[:-1, :-1] + where.lattice[1:, 1:]
               + where.lattice[:-1, 1:] + where.lattice[1:, :-1]) / 4
    assert np.abs(middles - where.centres).max() < 1.0
    assert np.allclose(where.corners, where.lattice[[0, 0, -1, -1], [0, -1, -1, 0]])
    assert 20 < where.cell_px() < 80
    document = where.to_json()
    assert set(document) == {"id", "corners", "outline", "centres"}
    assert len(document["centres"]) == spec.rows and len(document["centres"][0]) == spec.cols


def test_the_reading_is_drawn_on_a_copy_at_most_960_wide(read_photo) -> None:
    image, mats, geometry = read_photo
    before = image.copy()
    drawn = draw_reading(image, mats, geometry)
    assert drawn.shape == (540, 960, 3) and np.array_equal(image, before)
    full = draw_reading(image, mats, geometry, max_width=0)
    assert full.shape == image.shape
    raw, factor = scaled(image)
    assert factor == 0.5 and raw.shape == drawn.shape


def test_outlines_unknown_cells_tags_and_the_missing_mat_are_drawn(read_photo) -> None:
    image, mats, geometry = read_photo
    drawn = draw_reading(image, mats, geometry, max_width=0)
    unknown = [(mat["id"], r, c) for mat in mats if mat["found"]
               for r, line in enumerate(mat["cells"]) for c, value in enumerate(line)
               if value == "?"]
    assert unknown, "the hand should leave cells the reader cannot tell"
    for mat_id, r, c in unknown:  # a filled red box round the "?"
        assert red_share(drawn, geometry[mat_id].centres[r, c],
                         geometry[mat_id].cell_px()) > 0.3
    read = [(mat["id"], r, c) for mat in mats if mat["found"]
            for r, line in enumerate(mat["cells"]) for c, value in enumerate(line)
            if value == "."]
    assert all(red_share(drawn, geometry[m].centres[r, c], geometry[m].cell_px()) < 0.05
               for m, r, c in read)
    for where in geometry.values():
        on_outline = [close_to(drawn, point, FOUND) for point in where.outline]
        assert sum(on_outline) > 0.8 * len(on_outline)
    tags = [tag for mat in mats if mat.get("found") for tag in mat["tags"]]
    assert tags
    legend = drawn[:100, :260]
    assert (np.abs(legend.astype(int) - NOT_FOUND).max(axis=-1) < 40).any()  # "mat 2: not found"


def test_nothing_is_drawn_for_a_mat_without_geometry() -> None:
    frame = np.full((200, 300, 3), 128, np.uint8)
    drawn = draw_reading(frame, [{"id": 4, "found": False}], {})
    assert drawn.shape == frame.shape
    assert np.array_equal(drawn[120:, :], frame[120:, :])  # only the legend's corner changed
    assert not np.array_equal(drawn[:40, :200], frame[:40, :200])


def test_a_pose_bent_by_a_lens_bends_the_outline() -> None:
    spec = MatSpec(0, 4, 6, "tags")
    homography = np.array([[40.0, 0, 300], [0, 40.0, 200], [0, 0, 1]])
    straight = mat_geometry(spec, MatPose(homography, 4))
    bent = mat_geometry(spec, MatPose(homography, 4, RadialLens(k1=-0.3, centre=(640, 360),
                                                                  focal=900.0)))
    assert np.allclose(straight.corners, [[300, 200], [540, 200], [540, 360], [300, 360]])
    # the top edge's middle point lies off the straight line between its bent corners
    middle = bent.outline[OUTLINE_STEPS // 2]
    chord = (bent.corners[0] + bent.corners[1]) / 2
    assert abs(middle[1] - chord[1]) > 0.5
    assert np.allclose(straight.outline[OUTLINE_STEPS // 2], [420, 200])
