"""Reading photos of the kit: markers → mat poses → rectified mats → cells and tags.

A :class:`Reader` is built once for a set of mats and reused for every image,
so the detector and its tables are made only once.

Example::

    >>> import numpy as np
    >>> from vision.layout import MatSpec, marker_corners
    >>> from vision.render import render_photo
    >>> photo = render_photo(np.random.default_rng(7), [(MatSpec(3, 4, 6, "colour"), 20.0)])
    >>> reader = Reader([MatSpec(3, 4, 6, "colour"), MatSpec(4, 2, 2, "tags")])
    >>> [(mat["id"], mat["found"]) for mat in reader.read(photo.image)]
    [(3, True), (4, False)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.cells import classify_cells, normalised_mat
from vision.config import DEFAULT_CONFIG, FIRST_TAG_ID, LAST_TAG_ID, ReaderConfig
from vision.errors import CalibrationError, ImageError
from vision.lattice import plain_cells, refine_lattice
from vision.layout import MatSpec, marker_corners
from vision.lens import Lens, estimate_radial_lens
from vision.markers import MarkerDetector
from vision.mats import (
    MatPose,
    cells_in_frame,
    cells_near,
    fit_pose,
    locate_mat,
    marker_pairs,
    marker_paper_white,
    pose_agrees,
    rectify,
)
from vision.quiet import quiet_stderr
from vision.tags import tag_on_some_mat, tags_on_mat


@dataclass
class Observation:
    """What one image shows: a JSON-ready entry per mat, and the poses used."""

    mats: list[dict[str, Any]]
    poses: dict[int, MatPose] = field(default_factory=dict)


def load_image(path: str | Path) -> np.ndarray:
    """A BGR image from a file; :class:`ImageError` when it cannot be read as one."""
    file = Path(path)
    if not file.exists():
        raise ImageError("no such file")
    if file.is_dir():
        raise ImageError("is a directory, not an image")
    try:
        data = file.read_bytes()
    except OSError as error:
        raise ImageError(f"cannot read ({error.strerror})") from None
    if not data:
        raise ImageError("an empty file (0 bytes), not an image")
    if data.startswith(b"\xff\xd8") and b"\xff\xd9" not in data[-1024:]:
        raise ImageError("a JPEG cut short (no end marker)")
    with quiet_stderr():
        try:
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        except cv2.error:  # OpenCV asserts on some inputs instead of answering None
            image = None
    if image is None or image.size == 0:
        raise ImageError("not an image OpenCV can read")
    return image


class Reader:
    """Reads the mats ``specs`` from photos; one detector, shared by every image.

    ``empty_boards`` maps the number of a frame's tags mat to a calibration
    photo of the empty board laid in it (same camera): its cells' look then
    stands for ``.`` instead of the printed grey. ``lens`` is the camera's
    calibration (``vision.lens.load_lens``); without one, a radial distortion
    is estimated in each photo from the mats' own marker corners.
    """

    def __init__(self, specs: Sequence[MatSpec], config: ReaderConfig = DEFAULT_CONFIG,
                 empty_boards: Mapping[int, np.ndarray] | None = None,
                 lens: Lens | None = None) -> None:
        self.specs = list(specs)
        self.config = config
        self.lens = lens
        self.detector = MarkerDetector(config)
        self._marker_ids = {i for spec in self.specs for i in spec.marker_ids()}
        self._empty_looks = {mat_id: self._calibrate(photo, mat_id)
                             for mat_id, photo in (empty_boards or {}).items()}

    def _calibrate(self, photo: np.ndarray, mat_id: int) -> np.ndarray:
        """The normalised, rectified look of an empty board (frame mat ``mat_id``)."""
        spec = next((s for s in self.specs if s.id == mat_id), None)
        if spec is None or spec.kind != "tags":
            raise CalibrationError(mat_id, "an empty-board photo needs a tags mat")
        markers = self.detector.detect(photo, self._marker_ids).mat_markers()
        pose = locate_mat(photo, spec, markers, self.config, self._lens_for(markers, photo.shape))
        if pose is None:
            raise CalibrationError(mat_id, "not found in the empty-board photo")
        ppc = self.config.rectified_px_per_cell
        flat = cv2.cvtColor(rectify(photo, spec, pose, ppc), cv2.COLOR_BGR2RGB)
        anchors = marker_paper_white(photo, spec, pose, set(markers))
        look = normalised_mat(flat, spec, ppc, self.config,
                              None if anchors is None else (anchors[0], anchors[1][:, ::-1]))
        if look is None:
            raise CalibrationError(mat_id, "no white border seen in the empty-board photo")
        return look

    def observe(self, image: np.ndarray,
                remembered: dict[int, MatPose] | None = None) -> Observation:
        """Read one BGR image; ``remembered`` poses stand in for mats whose markers are hidden."""
        if image is None or image.ndim != 3 or image.size == 0:
            raise ImageError("not a colour image")
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        detections = self.detector.detect(grey, self._marker_ids)
        markers, tags = detections.mat_markers(), detections.tags()
        observation = Observation([])
        lens = self._lens_for(markers, image.shape)
        poses = {}
        for spec in self.specs:
            markers.update(self._look_beside_one(spec, markers, grey, lens))
            pose = locate_mat(image, spec, markers, self.config, lens)
            poses[spec.id] = self._with_memory(spec, pose, markers, remembered or {})
        found = [(spec, poses[spec.id]) for spec in self.specs if poses[spec.id] is not None]
        for tag_id, copies in detections.repeated.items():
            piece = tag_on_some_mat(copies, found, self.config)
            if piece is not None:
                tags[tag_id] = piece
        decoded = set(tags) | set(detections.repeated)  # ids no cell is looked at for again
        for spec in self.specs:
            if poses[spec.id] is None:
                observation.mats.append({"id": spec.id, "found": False})
                continue
            entry, observation.poses[spec.id] = self._read_mat(
                (image, grey), spec, poses[spec.id], tags, set(markers), decoded)
            observation.mats.append(entry)
        return observation

    def _look_beside_one(self, spec: MatSpec, markers: dict[int, np.ndarray], grey: np.ndarray,
                         lens: Lens | None) -> dict[int, np.ndarray]:
        """For a mat seen through one marker only, its other markers found where that
        marker's pose puts them (``MarkerDetector.look_at``); each must still agree."""
        seen = marker_pairs(spec, markers)
        if len(seen) != 1:
            return {}
        pose = fit_pose(spec, markers, self.config, lens)
        if pose is None:
            return {}
        expected = {marker_id: pose.to_image(marker_corners(spec, corner))
                    for corner, marker_id in enumerate(spec.marker_ids()) if corner not in seen}
        return self.detector.look_at(grey, expected)

    def _lens_for(self, markers: dict[int, np.ndarray], shape: tuple[int, ...]) -> Lens | None:
        """The calibrated lens, or one estimated from the mats seen with 3+ markers."""
        if self.lens is not None:
            return self.lens
        pairs = []
        for spec in self.specs:
            seen = marker_pairs(spec, markers)
            if len(seen) * 4 >= self.config.lens_min_points:
                pairs.append((np.concatenate([marker_corners(spec, c) for c in seen]),
                              np.concatenate(list(seen.values()))))
        return estimate_radial_lens(pairs, shape, self.config) if pairs else None

    def _with_memory(self, spec: MatSpec, pose: MatPose | None,
                     markers: dict[int, np.ndarray],
                     remembered: dict[int, MatPose]) -> MatPose | None:
        """A weak fresh pose gives way to a remembered one its markers agree with."""
        weak = pose is None or pose.markers_seen < self.config.trusted_pose_markers
        memory = remembered.get(spec.id)
        if weak and memory is not None and pose_agrees(memory, spec, markers,
                                                       2 * self.config.pose_max_error_px):
            return memory
        return pose

    def read(self, image: np.ndarray) -> list[dict[str, Any]]:
        """The JSON-ready ``mats`` list for one BGR image (docs/contracts.md §6)."""
        return self.observe(image).mats

    def read_file(self, path: str | Path) -> dict[str, Any]:
        """``{"image": path, "mats": [...]}`` for one file; :class:`ImageError` if unreadable."""
        return {"image": str(path), "mats": self.read(load_image(path))}

    def _refined(self, photo: tuple[np.ndarray, np.ndarray], spec: MatSpec, pose: MatPose,
                 seen: set[int]) -> tuple[np.ndarray, MatPose]:
        """The rectified mat (BGR) and its pose, the lattice refined from its grid lines
        (``photo``: the image in BGR and in grey)."""
        image, grey = photo
        ppc = self.config.rectified_px_per_cell
        flat = rectify(image, spec, pose, ppc)
        if (pose.markers_seen < self.config.lattice_min_markers or pose.lens is not None
                or pose.lattice is not None):  # a lens (estimated or calibrated) bends it already
            return flat, pose
        corners = {c for c, marker_id in enumerate(spec.marker_ids()) if marker_id in seen}
        plain = plain_cells(cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY), spec, ppc, self.config)
        shift = refine_lattice(grey, spec, pose.to_image, plain, corners,
                               self.config)
        if shift is None:
            return flat, pose
        pose = replace(pose, lattice=shift)
        return rectify(image, spec, pose, ppc), pose

    def _read_mat(self, photo: tuple[np.ndarray, np.ndarray], spec: MatSpec, pose: MatPose,
                  tags: dict[int, np.ndarray], seen: set[int],
                  decoded: set[int]) -> tuple[dict[str, Any], MatPose]:
        ppc = self.config.rectified_px_per_cell
        image = photo[0]
        anchors = marker_paper_white(image, spec, pose, seen)  # the markers fix the pose
        bgr, pose = self._refined(photo, spec, pose, seen)
        flat = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        on_mat = tags_on_mat(tags, spec, pose, self.config)
        tag_cells = {(tag["row"], tag["col"]) for tag in on_mat}
        visible = cells_in_frame(spec, pose, image.shape)
        if pose.single_corner is not None:
            visible &= cells_near(spec, pose.single_corner, self.config.single_marker_reach)
        cells = classify_cells(flat, spec, ppc, self.config, tag_cells, visible,
                               None if anchors is None else (anchors[0], anchors[1][:, ::-1]),
                               {corner for corner, marker_id in enumerate(spec.marker_ids())
                                if marker_id not in seen},
                               self._empty_looks.get(spec.id))
        if spec.kind == "tags":
            cells, on_mat = self._tags_in_unread_cells(photo[1], pose, cells, on_mat, decoded)
        return {"id": spec.id, "found": True, "cells": cells, "tags": on_mat}, pose

    def _tags_in_unread_cells(self, grey: np.ndarray, pose: MatPose, cells: list[str],
                              on_mat: list[dict[str, int]], decoded: set[int]
                              ) -> tuple[list[str], list[dict[str, int]]]:
        """The cells read ``?`` or ``X`` without a tag looked at once more for a tag centred
        on them (a tag whose frame ran into dark artwork is no square to the detector; its
        pattern may read as a grained piece); each found is ``X``. Ids ``decoded`` in the
        photo already (found, or found twice and trusted nowhere) are not looked for; each
        one found here joins them."""
        candidates = set(range(FIRST_TAG_ID, LAST_TAG_ID + 1)) - decoded
        rows = [list(row) for row in cells]
        found = list(on_mat)
        tagged = np.zeros((len(rows), len(rows[0])), bool)
        for tag in on_mat:
            tagged[tag["row"], tag["col"]] = True
        unread = (np.array(rows) == "?") | ((np.array(rows) == "X") & ~tagged)
        for row, col in zip(*np.nonzero(unread), strict=True):
            seen = self.detector.look_in_cell(grey, pose.to_image, (int(row), int(col)),
                                              candidates)
            if seen is not None:
                tag_id, rotation = seen
                candidates.discard(tag_id)
                decoded.add(tag_id)
                rows[row][col] = "X"
                found.append({"id": tag_id, "row": int(row), "col": int(col),
                              "rotation": rotation})
        found.sort(key=lambda tag: (tag["row"], tag["col"], tag["id"]))
        return ["".join(row) for row in rows], found
