"""Placing detected tags on a mat: which cell holds each tag's centre, and its rotation.

Example::

    >>> import numpy as np
    >>> from vision.layout import MatSpec, square_corners
    >>> from vision.mats import MatPose
    >>> spec = MatSpec(1, 3, 3, "tags")
    >>> pose = MatPose(np.diag([50.0, 50.0, 1.0]), 4)          # 50 px per cell
    >>> tag = square_corners((1.5, 2.5), 0.7)[[1, 2, 3, 0]] * 50   # turned 90° clockwise
    >>> tags_on_mat({117: tag}, spec, pose)
    [{'id': 117, 'row': 2, 'col': 1, 'rotation': 90}]
"""

from __future__ import annotations

import math

import numpy as np

from vision.config import DEFAULT_CONFIG, FIRST_TAG_ID, ReaderConfig
from vision.layout import MatSpec
from vision.mats import MatPose


def _looks_like_a_tag(corners: np.ndarray, config: ReaderConfig) -> bool:
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return bool(config.tag_min_side <= sides.mean() <= config.tag_max_side
                and sides.min() >= config.tag_min_squareness * sides.max())


def tag_rotation(corners: np.ndarray) -> int:
    """Clockwise turn (0, 90, 180, 270) of a tag whose corners are given in mat coordinates."""
    top = (corners[1] - corners[0]) + (corners[2] - corners[3])
    angle = math.degrees(math.atan2(top[1], top[0]))
    return round(angle / 90) % 4 * 90


def tag_on_some_mat(copies: list[np.ndarray], mats: list[tuple[MatSpec, MatPose]],
                    config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray | None:
    """The one copy of a repeated tag id (image corners each) that lies on a found mat.

    A piece's tag sits on a mat; a loose sticker of the same id beside the mats
    is no piece. So when exactly one copy is a tag on some mat's grid that copy
    is the piece's; when none or several are (two pieces claim one id), None.

    >>> from vision.layout import MatSpec, square_corners
    >>> spec, pose = MatSpec(1, 3, 3, "tags"), MatPose(np.diag([50.0, 50.0, 1.0]), 4)
    >>> on, beside = square_corners((1.5, 1.5), 0.7) * 50, square_corners((5.5, 1.5), 0.7) * 50
    >>> tag_on_some_mat([beside, on], [(spec, pose)]) is on
    True
    >>> tag_on_some_mat([on, on + 50], [(spec, pose)]) is None
    True
    """
    placed = [corners for corners in copies
              if any(tags_on_mat({FIRST_TAG_ID: corners}, spec, pose, config)
                     for spec, pose in mats)]
    return placed[0] if len(placed) == 1 else None


def tags_on_mat(tags: dict[int, np.ndarray], spec: MatSpec, pose: MatPose,
                config: ReaderConfig = DEFAULT_CONFIG) -> list[dict[str, int]]:
    """The tags (id → image corners) whose centre lies on the mat's grid, by row, col, id."""
    found = []
    for tag_id, image_corners in tags.items():
        corners = pose.to_mat(image_corners)
        if not _looks_like_a_tag(corners, config):
            continue
        x, y = corners.mean(axis=0)
        if not (0 <= x < spec.cols and 0 <= y < spec.rows):
            continue
        found.append({"id": tag_id, "row": int(y), "col": int(x),
                      "rotation": tag_rotation(corners)})
    return sorted(found, key=lambda tag: (tag["row"], tag["col"], tag["id"]))
