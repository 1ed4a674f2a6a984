"""Finding ArUco markers: the mats' corner markers and the pieces' tags, in one pass.

``DICT_4X4_50`` is the start of ``DICT_4X4_250``, so one detector over the 250
dictionary finds both; ids 0–47 are mat corners, 50–249 are tags.

Example::

    >>> import numpy as np
    >>> detector = MarkerDetector()
    >>> detector.detect(np.full((120, 160, 3), 255, np.uint8)).corners
    {}
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.config import DEFAULT_CONFIG, FIRST_TAG_ID, LAST_TAG_ID, ReaderConfig
from vision.layout import MAX_MAT_NUMBER, TAG_SIDE, TAG_WHITE_SIDE, square_corners

_LAST_MAT_MARKER = 4 * MAX_MAT_NUMBER + 3


@dataclass
class Detections:
    """Marker corners found in one image, by id: a 4×2 array each (ArUco corner order).

    An id seen more than once is not in ``corners``; a tag id's copies are kept
    in ``repeated`` (a loose sticker beside the mats may share a piece's id),
    for the reader to tell which copy lies on a mat (:func:`vision.tags.tag_on_some_mat`).
    """

    corners: dict[int, np.ndarray]
    repeated: dict[int, list[np.ndarray]] = field(default_factory=dict)

    def mat_markers(self) -> dict[int, np.ndarray]:
        """The corner markers of mats (ids 0..47)."""
        return {i: c for i, c in self.corners.items() if i <= _LAST_MAT_MARKER}

    def tags(self) -> dict[int, np.ndarray]:
        """The pieces' tags (ids 50..249)."""
        return {i: c for i, c in self.corners.items() if FIRST_TAG_ID <= i <= LAST_TAG_ID}


def _parameters(config: ReaderConfig) -> cv2.aruco.DetectorParameters:
    parameters = cv2.aruco.DetectorParameters()
    parameters.adaptiveThreshWinSizeMin = config.adaptive_window_min
    parameters.adaptiveThreshWinSizeMax = config.adaptive_window_max
    parameters.adaptiveThreshWinSizeStep = config.adaptive_window_step
    parameters.minMarkerPerimeterRate = config.min_marker_perimeter_rate
    parameters.maxMarkerPerimeterRate = config.max_marker_perimeter_rate
    parameters.polygonalApproxAccuracyRate = config.polygonal_approx_accuracy
    parameters.minCornerDistanceRate = config.min_corner_distance_rate
    parameters.errorCorrectionRate = config.error_correction_rate
    parameters.maxErroneousBitsInBorderRate = config.max_erroneous_border_bits
    parameters.perspectiveRemoveIgnoredMarginPerCell = config.bit_margin
    parameters.perspectiveRemovePixelPerCell = config.bit_cell_pixels
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    return parameters


def _signed_area(square: np.ndarray) -> float:
    """Twice the signed area of a quadrilateral; positive when clockwise on screen."""
    x, y = square[:, 0], square[:, 1]
    return float(x @ np.roll(y, -1) - y @ np.roll(x, -1))


def _bit_levels(grey: np.ndarray, square: np.ndarray, bit_px: int) -> np.ndarray:
    """The mean grey of the centre of each of a square's 6×6 bits (its frame included)."""
    side = 6 * bit_px
    target = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    warp = cv2.getPerspectiveTransform(square.astype(np.float32), target)
    flat = cv2.warpPerspective(grey, warp, (side, side), flags=cv2.INTER_LINEAR)
    margin = bit_px // 4
    cells = flat.reshape(6, bit_px, 6, bit_px)[:, margin:bit_px - margin, :, margin:bit_px - margin]
    return cells.astype(np.float32).mean(axis=(1, 3))


_PATTERNS: dict[int, np.ndarray] = {}


def _pattern(marker_id: int) -> np.ndarray:
    """The 6×6 bits of a DICT_4X4_250 marker, black frame included (True = white)."""
    if marker_id not in _PATTERNS:
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
        _PATTERNS[marker_id] = cv2.aruco.generateImageMarker(dictionary, marker_id, 6) > 127
    return _PATTERNS[marker_id]


_MASKS: dict[frozenset[int], tuple[list[tuple[int, int]], np.ndarray]] = {}


def _masks(candidates: Collection[int]) -> tuple[list[tuple[int, int]], np.ndarray]:
    """(id, turn) of every candidate marker turned four ways, and their white bits (M×36)."""
    key = frozenset(candidates)
    if key not in _MASKS:
        names = [(marker_id, turn) for marker_id in sorted(key) for turn in range(4)]
        masks = np.array([np.rot90(_pattern(i), turn).ravel() for i, turn in names], bool)
        _MASKS[key] = names, masks
    return _MASKS[key]


def _contrast(bits: np.ndarray, marker_id: int) -> float:
    """How much brighter a square's bits (6×6, upright) are where ``marker_id`` prints
    white than where it prints black (its frame included)."""
    white = _pattern(marker_id)
    return float(bits[white].mean() - bits[~white].mean())


def _pattern_match(bits: np.ndarray, candidates: Collection[int], min_separation: float,
                   min_contrast: float) -> tuple[int, int] | None:
    """(id, turn) of the one candidate marker whose white bits are all clearly brighter
    than its black bits in ``bits`` turned by ``turn`` quarter turns, or None.

    Its white bits' mean must exceed its black bits' (the frame included) by
    ``min_contrast`` and its dimmest white bit its brightest black one by
    ``min_separation`` of that. ``np.roll(square, turn, axis=0)`` puts the
    marker's top-left corner first: the bits were sampled with the square's
    first corner at their top-left.
    """
    names, masks = _masks(candidates)
    levels = np.asarray(bits, np.float64).ravel()
    whites = masks.sum(axis=1)
    bright = np.where(masks, levels, 0.0).sum(axis=1) / np.maximum(whites, 1)
    dark = np.where(masks, 0.0, levels).sum(axis=1) / np.maximum(36 - whites, 1)
    contrast = bright - dark
    gap = np.where(masks, levels, np.inf).min(axis=1) - np.where(masks, -np.inf, levels).max(axis=1)
    fits = np.nonzero((contrast >= min_contrast) & (gap >= min_separation * contrast))[0]
    return names[fits[0]] if len(fits) == 1 else None


class MarkerDetector:
    """One ArUco detector, built once and reused for every image.

    Large images are searched at ``config.detect_scale``; the corners of the
    mats' markers are then refined with ``cornerSubPix`` on the full image.
    """

    def __init__(self, config: ReaderConfig = DEFAULT_CONFIG) -> None:
        self.config = config
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
        self._detector = cv2.aruco.ArucoDetector(dictionary, _parameters(config))
        self._criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05)

    def detect(self, image: np.ndarray, wanted: Collection[int] = ()) -> Detections:
        """Every marker in a BGR or grey image, with corners in full-image pixels.

        Mat markers among ``wanted`` that the detector saw as a square but could
        not decode are looked for again among its rejected squares
        (:meth:`_rescue`).
        """
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        scale = 1.0
        searched = grey
        if self.config.detect_scale < 1 and grey.shape[1] >= self.config.downscale_min_width:
            scale = self.config.detect_scale
            searched = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        found, ids, rejected = self._detector.detectMarkers(searched)
        corners: dict[int, np.ndarray] = {}
        copies: dict[int, list[np.ndarray]] = {}
        for marker_id, points in zip([] if ids is None else ids.ravel().tolist(), found,
                                     strict=True):
            square = (points.reshape(4, 2).astype(np.float64) + 0.5) / scale - 0.5
            if marker_id <= _LAST_MAT_MARKER or self._contrasted(grey, marker_id, square):
                copies.setdefault(marker_id, []).append(square)
        for marker_id, seen in copies.items():  # the same id twice: trust neither here
            corners[marker_id] = seen[0] if len(seen) == 1 else np.full((4, 2), np.nan)
        repeated = {i: seen for i, seen in copies.items()
                    if len(seen) > 1 and FIRST_TAG_ID <= i <= LAST_TAG_ID}
        missing = {i for i in wanted if i <= _LAST_MAT_MARKER} - set(corners)
        if missing and rejected:
            squares = [(points.reshape(4, 2).astype(np.float64) + 0.5) / scale - 0.5
                       for points in rejected]
            for marker_id, points in self._rescue(grey, squares, missing).items():
                corners.setdefault(marker_id, points)
        corners = {i: c for i, c in corners.items() if not np.isnan(c).any()}
        self._refine(grey, corners)
        return Detections(corners, repeated)

    def _contrasted(self, grey: np.ndarray, tag_id: int, square: np.ndarray) -> bool:
        """Whether a decoded tag shows its pattern with real contrast (not a smooth patch);
        checked on every copy, before repeated ids are told apart."""
        bits = _bit_levels(grey, square, self.config.bit_cell_pixels)
        return _contrast(bits, tag_id) >= self.config.tag_min_contrast

    def _rescue(self, grey: np.ndarray, squares: list[np.ndarray],
                missing: set[int]) -> dict[int, np.ndarray]:
        """The ``missing`` mat markers among squares the detector could not decode.

        Blur, JPEG and a corner placed a little off make a marker's lone white
        bits come out grey, and the detector's fixed threshold then misreads a
        bit. Here a square counts as marker ``i`` when every bit that ``i``
        prints white is clearly brighter than every bit it prints black (its
        whole black frame included), in one of the four turns. Only the
        missing markers of the mats looked for are tried, and a marker found
        this way still has to agree with its mat's layout like any other.
        """
        rescued: dict[int, np.ndarray] = {}
        for square in squares:
            square = square if _signed_area(square) > 0 else square[::-1]
            side = np.linalg.norm(square - np.roll(square, -1, axis=0), axis=1)
            if side.min() < self.config.rescue_min_side_px:
                continue
            bits = _bit_levels(grey, square, self.config.bit_cell_pixels)
            match = _pattern_match(bits, missing, self.config.rescue_min_separation,
                                   self.config.rescue_min_contrast)
            if match is None:
                continue
            marker_id, turn = match
            points = np.roll(square, turn, axis=0)
            rescued[marker_id] = np.full((4, 2), np.nan) if marker_id in rescued else points
        return rescued

    def look_at(self, grey: np.ndarray, expected: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        """The markers found where they are ``expected`` (id → 4×2 predicted corners).

        For a marker the detector did not outline (its black frame runs into a
        hand's shadow, so its contour is no square): the predicted corners are
        refined with ``cornerSubPix`` in a window of a quarter of its side, and
        the square counts when its bits show that marker (:func:`_pattern_match`)
        and no corner moved more than ``look_max_shift`` of its side.
        """
        found = {}
        for marker_id, square in expected.items():
            side = float(np.linalg.norm(square - np.roll(square, -1, axis=0), axis=1).mean())
            if side < self.config.rescue_min_side_px:
                continue
            height, width = grey.shape[:2]
            if square.min() < side / 2 or (square.max(axis=0) >= (width - side / 2,
                                                                   height - side / 2)).any():
                continue
            window = max(2, round(side / 8))
            refined = cv2.cornerSubPix(grey, square.astype(np.float32).reshape(-1, 1, 2),
                                       (window, window), (-1, -1),
                                       self._criteria).reshape(4, 2).astype(np.float64)
            moved = np.linalg.norm(refined - square, axis=1).max()
            if moved > self.config.look_max_shift * side:
                continue
            bits = _bit_levels(grey, refined, self.config.bit_cell_pixels)
            if _pattern_match(bits, {marker_id}, self.config.rescue_min_separation,
                              self.config.rescue_min_contrast) == (marker_id, 0):
                found[marker_id] = refined
        return found

    def look_in_cell(self, grey: np.ndarray, to_image: Callable[[np.ndarray], np.ndarray],
                     cell: tuple[int, int], candidates: Collection[int]) -> tuple[int, int] | None:
        """(id, clockwise rotation) of a tag among ``candidates`` the detector did not
        outline, looked for where the kit puts one: centred on ``cell`` (row, col) of a
        mat (``to_image`` takes its mat points to the photo), upright or turned by
        quarter turns, a little off centre at most (``tag_look_shifts``); None if none
        shows there.

        A piece's artwork right up to its sticker's narrow white rim (dark stripes) can
        merge with the tag's black frame under blur, so that its contour is no square;
        its bits still show the tag (:func:`_pattern_match`, every white bit clearly
        brighter than every black one).
        """
        row, col = cell
        centred = to_image(square_corners((col + 0.5, row + 0.5), TAG_SIDE))
        if np.ptp(_bit_levels(grey, centred, self.config.bit_cell_pixels)) < (
                self.config.rescue_min_contrast):
            return None  # no black and white here: plain artwork, a hand, the empty grey
        for dx in self.config.tag_look_shifts:
            for dy in self.config.tag_look_shifts:
                square = to_image(square_corners((col + 0.5 + dx, row + 0.5 + dy), TAG_SIDE))
                side = float(np.linalg.norm(square - np.roll(square, -1, axis=0), axis=1).min())
                if side < self.config.rescue_min_side_px:
                    return None
                bits = _bit_levels(grey, square, self.config.bit_cell_pixels)
                match = _pattern_match(bits, candidates, self.config.rescue_min_separation,
                                       self.config.rescue_min_contrast)
                if match is None:
                    continue
                tag_id, turn = match  # the pattern seen is the tag turned back by turn
                centre = (col + 0.5 + dx, row + 0.5 + dy)
                if self._rim_is_white(grey, to_image, centre, bits, _pattern(tag_id)):
                    return tag_id, (4 - turn) % 4 * 90
        return None

    def _rim_is_white(self, grey: np.ndarray, to_image: Callable[[np.ndarray], np.ndarray],
                      centre: tuple[float, float], bits: np.ndarray, pattern: np.ndarray
                      ) -> bool:
        """Whether the sticker's white rim round a tag is seen all round, as white as the
        tag's own white bits: a hand or a card over part of a tag hides its rim too, and
        the bits left may fit another tag."""
        steps = np.linspace(-1, 1, 9)[:-1]
        half = (TAG_SIDE + TAG_WHITE_SIDE) / 4  # midway between the tag's edge and the sticker's
        ring = np.concatenate([np.column_stack([steps, -np.ones(8)]),
                               np.column_stack([np.ones(8), steps]),
                               np.column_stack([-steps, np.ones(8)]),
                               np.column_stack([-np.ones(8), -steps])]) * half + centre
        where = to_image(ring).astype(np.float32).reshape(1, -1, 2)
        rim = cv2.remap(grey, where, None, cv2.INTER_LINEAR).astype(np.float32).ravel()
        white, black = bits.ravel()[pattern.ravel()].mean(), bits.ravel()[~pattern.ravel()].mean()
        return bool(rim.min() >= black + self.config.tag_rim_min_share * (white - black))

    def _refine(self, grey: np.ndarray, corners: dict[int, np.ndarray]) -> None:
        mats = [i for i in corners if i <= _LAST_MAT_MARKER]
        if not mats:
            return
        points = np.concatenate([corners[i] for i in mats]).astype(np.float32)
        window = self.config.subpixel_window
        refined = cv2.cornerSubPix(grey, points.reshape(-1, 1, 2), (window, window), (-1, -1),
                                   self._criteria).reshape(-1, 4, 2)
        for marker_id, better in zip(mats, refined, strict=True):
            corners[marker_id] = better.astype(np.float64)
