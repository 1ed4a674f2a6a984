"""A camera replay for the camera check's tests: a few frames of a Removal table (the kit's
trucks 1 and 2, tags on them), rendered with ``vision/render.py`` into a folder."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.layout import MatSpec
from vision.render import make_scene, photograph

#: The kit's first two Removal trucks (mats 0 and 1, table 0 of 1); the kit prints four.
TRUCKS = [MatSpec(0, 6, 8, "tags"), MatSpec(1, 6, 8, "tags")]


def render_frames(folder: Path, hands: tuple[int, ...] = (0, 1, 0), seed: int = 5) -> Path:
    """One frame per entry of ``hands`` (that many hands over the mats) of the same table,
    written as lossless PNGs ``0000.png``... into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    scene = make_scene(rng, [(spec, 25.0) for spec in TRUCKS])
    for index, count in enumerate(hands):
        cv2.imwrite(str(folder / f"{index:04d}.png"), photograph(scene, rng, hands=count).image)
    return folder
