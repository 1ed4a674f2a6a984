"""Reading the cells of a rectified mat, against references printed in the same photo.

The light is learnt from the mat itself: the white border all round the grid
gives a smooth model of the white (per colour channel, so a colour cast
cancels too), every pixel is divided by it, and a colour mat's reference
patches give the look of each class under this very light. A cell takes a
class only when nearly all its central pixels agree with that class and
nothing else comes close; anything else — a hand, its shadow, glare — is
``?``. Colours seen crossing the white border (an arm reaching in) are learnt
as *intruders* and any cell showing them is ``?`` too.

Example::

    >>> import numpy as np
    >>> from vision.layout import MatSpec, CLASS_COLOURS, WHITE
    >>> spec, ppc = MatSpec(0, 1, 2, "tags"), 16
    >>> flat = np.full(((1 + 2) * ppc, (2 + 2) * ppc, 3), WHITE, np.uint8)
    >>> flat[ppc:2 * ppc, ppc:2 * ppc] = CLASS_COLOURS["."]      # cell (0, 0) empty
    >>> flat[ppc:2 * ppc, 2 * ppc:3 * ppc] = (30, 120, 200)       # cell (0, 1) a piece
    >>> classify_cells(flat * 0.7, spec, ppc)                     # dim light
    ['.X']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.config import DEFAULT_CONFIG, ReaderConfig
from vision.layout import (
    CLASS_COLOURS,
    PATCH_CLASSES,
    WHITE,
    MatSpec,
    border_sample_cells,
    patch_centre,
)

_WHITE = np.array(WHITE, np.float32)
_EMPTY = np.array(CLASS_COLOURS["."], np.float32)


@dataclass
class WhiteModel:
    """Per-channel white as ``a + b·x + c·y`` over mat coordinates (3×3 coefficients)."""

    coefficients: np.ndarray
    low: np.ndarray | None = None
    high: np.ndarray | None = None

    def at(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """The white (…×3) at mat points ``xs``, ``ys``, kept within ``low``..``high``."""
        basis = np.stack([np.ones_like(xs), xs, ys], -1)
        white = basis @ self.coefficients.T
        if self.low is not None and self.high is not None:
            white = np.clip(white, self.low, self.high)
        return np.maximum(white, 1.0)


def _inner(block: np.ndarray, ppc: int, config: ReaderConfig) -> np.ndarray:
    margin = round(ppc * (1 - config.cell_inner_fraction) / 2)
    return block[..., margin:ppc - margin, :, margin:ppc - margin, :]


def _cell_pixels(image: np.ndarray, rows: int, cols: int, ppc: int,
                 config: ReaderConfig) -> np.ndarray:
    """The central pixels of each grid cell, as rows×cols×n×3."""
    grid = image[ppc:ppc * (rows + 1), ppc:ppc * (cols + 1)].reshape(rows, ppc, cols, ppc, 3)
    inner = _inner(grid, ppc, config)
    side = inner.shape[1]
    return inner.transpose(0, 2, 1, 3, 4).reshape(rows, cols, side * side, 3)


def _border_samples(image: np.ndarray, spec: MatSpec, ppc: int,
                    config: ReaderConfig) -> tuple[np.ndarray, np.ndarray]:
    """Positions (N×2, mat coords) and central pixels (N×n×3) of the plain border cells."""
    positions, pixels = [], []
    for row, col in border_sample_cells(spec):
        y0, x0 = (row + 1) * ppc, (col + 1) * ppc
        block = image[y0:y0 + ppc, x0:x0 + ppc].reshape(1, ppc, 1, ppc, 3)
        pixels.append(_inner(block, ppc, config).reshape(-1, 3))
        positions.append((col + 0.5, row + 0.5))
    return np.array(positions, np.float32), np.array(pixels, np.float32)


def _plane(positions: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """3×3 coefficients of the least-squares plane per channel (a constant if too few points)."""
    coefficients = np.zeros((3, 3), np.float32)
    if len(positions) < 3:
        coefficients[:, 0] = np.median(colours, axis=0)
        return coefficients
    basis = np.column_stack([np.ones(len(positions)), positions])
    solution, *_ = np.linalg.lstsq(basis, colours, rcond=None)
    return solution.T.astype(np.float32)


def fit_white(positions: np.ndarray, pixels: np.ndarray,
              anchors: tuple[np.ndarray, np.ndarray] | None = None,
              config: ReaderConfig = DEFAULT_CONFIG) -> WhiteModel | None:
    """A robust model of the border's white, or None when too little of it is seen.

    ``anchors`` (positions K×2, colours K×3) is the white measured where it is
    surely paper: the white bits of the visible corner markers. They may lie
    in a shadow, so they give the white's *tint* (the room's colour cast), not
    its brightness: only border samples of that tint are candidates, which
    keeps an arm lying along the border from posing as the white. The first
    model goes through the brighter half of the candidates (shadows only
    darken); the rest join in as the tolerance tightens
    (``config.white_fit_schedule``), whose last rounds drop samples a little
    darker than the fit sooner than brighter ones.
    """
    means = pixels.mean(axis=1)
    spread = pixels.std(axis=1).max(axis=1)
    usable = (spread < config.white_sample_max_std) & (means.min(axis=1) > 8)
    if anchors is not None and len(anchors[1]):
        tint = np.median(anchors[1], axis=0)
        ratios = means / np.maximum(tint / max(float(tint.mean()), 1.0), 1e-3)
        usable &= ratios.max(axis=1) / np.maximum(ratios.min(axis=1), 1e-3) < (
            1 + config.white_tint_tolerance)
    if not usable.any():
        return None
    brightness = means.mean(axis=1)
    bright = usable & (brightness >= np.median(brightness[usable]))
    few = bright.sum() < config.white_min_samples_for_plane
    model = WhiteModel(_plane(positions[bright][:0] if few else positions[bright],
                              means[bright]))
    for tolerance, below in config.white_fit_schedule:
        ratio = means / model.at(positions[:, 0], positions[:, 1])
        inliers = usable & (ratio.max(axis=1) < 1 + tolerance) & (ratio.min(axis=1) > 1 - below)
        if not inliers.any():
            return None
        few = inliers.sum() < config.white_min_samples_for_plane
        model = WhiteModel(_plane(positions[inliers][:0] if few else positions[inliers],
                                  means[inliers]))
    seen = means[inliers]
    slack = config.white_extrapolation_slack
    return WhiteModel(model.coefficients, seen.min(axis=0) * (1 - slack),
                      seen.max(axis=0) * (1 + slack))


def _normalised(image: np.ndarray, white: WhiteModel, ppc: int) -> np.ndarray:
    height, width = image.shape[:2]
    xs = (np.arange(width, dtype=np.float32) + 0.5) / ppc - 1
    ys = (np.arange(height, dtype=np.float32) + 0.5) / ppc - 1
    field = white.at(*np.meshgrid(xs, ys))
    return image.astype(np.float32) / field * _WHITE


def clipped_channels(rectified_rgb: np.ndarray, spec: MatSpec, ppc: int,
                     config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray:
    """Which channels (3 bools) the camera clipped on the white border: there the
    border is no measure of the white, only a lower bound.

    >>> spec = MatSpec(0, 2, 2, "tags")
    >>> flat = np.full((64, 64, 3), (240, 255, 230), np.uint8)
    >>> clipped_channels(flat, spec, 16).tolist()
    [False, True, False]
    """
    _, raw = _border_samples(rectified_rgb, spec, ppc, config)
    saturated = raw.reshape(-1, 3) >= config.saturated_level
    return saturated.mean(axis=0) >= config.white_clipped_share


def clipped_white_gain(pixels: np.ndarray, clipped: np.ndarray,
                       config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray:
    """Per channel, the factor that takes the normalised cells (rows×cols×n×3) to the
    printed scale where the border's white was clipped, learnt from the empty cells.

    A clipped border understates the white, so every cell reads too strong in that
    channel: the empty grey comes out pink or green (failure reports plain-001,
    real-011). The plain light cells whose unclipped channels show the printed
    grey, and which agree in the clipped channel, are the empty cells: their
    median there is the printed grey. No factor brightens (clipping only ever
    darkens the white).
    """
    gain = np.ones(3, np.float32)
    if not clipped.any():
        return gain
    tolerance, grey = config.clipped_grey_tolerance, _EMPTY[0]
    means = pixels.mean(axis=2)
    plain = pixels.std(axis=2).max(axis=-1) < config.white_sample_max_std
    candidates = plain & (means >= grey - tolerance).all(axis=-1) & (
        means[..., ~clipped] <= grey + tolerance).all(axis=-1)
    for channel in np.flatnonzero(clipped):
        values = means[..., channel][candidates]
        if len(values) < config.clipped_min_grey_cells:
            continue
        agreeing = values[np.abs(values - np.median(values)) <= tolerance / 2]
        if len(agreeing) >= config.clipped_min_grey_cells:
            gain[channel] = min(1.0, grey / float(np.median(agreeing)))
    return gain


def printed_references(spec: MatSpec) -> dict[str, np.ndarray]:
    """The classes of a mat kind with their printed colours (1×3 each)."""
    references = {name: np.array([rgb], np.float32) for name, rgb in CLASS_COLOURS.items()}
    return references if spec.kind == "colour" else {".": references["."]}


def _lit_looks(colours: np.ndarray, config: ReaderConfig) -> tuple[np.ndarray, np.ndarray]:
    """``colours`` (K×3) in soft shadows (``config.shade_levels`` of the light) and under
    thin veils of glare (``config.veil_levels``: linear light added, a share of paper
    white's): the looks (N×3) and which of them are veiled (N bools)."""
    linear = to_linear(colours)
    shaded = [from_linear(linear * level) for level in config.shade_levels]
    veiled = [from_linear(linear + level) for level in config.veil_levels]
    looks = np.vstack([*shaded, *veiled]).astype(np.float32)
    return looks, np.arange(len(looks)) >= len(shaded) * len(colours)


def lit_references(references: dict[str, np.ndarray], config: ReaderConfig = DEFAULT_CONFIG,
                   intruder: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """``references`` with each class's looks in soft shadow and under a thin veil of
    glare added, where no other class could look the same.

    A lamp's reflection too faint to wash a card out still adds white light to it: the
    red card turns pink, the dark box grey (photoshoot real seeds 6, 36: red cards at
    (215, 90, 90) under a glare's skirt); a person's soft shadow darkens the empty grey
    by up to 45 % (real seed 7). Light adds and dims in linear units, so the looks are
    computed there. The dark box under a veil is the empty grey in a deep shadow: a
    look that comes within ``config.lit_look_separation`` of another class's looks, or
    of its colour in any shadow down to ``config.deepest_shadow``, is left out, and the
    cell stays for the later tests (the shadow's light, the glare's marks) to tell.
    So is a veiled look within ``config.intruder_exclusion`` of a colour
    seen crossing the border (``intruder``: a hand's skin is a pale yellow card's look
    under a veil; the border's own shadows are no reason to drop a shaded look).

    >>> from dataclasses import replace
    >>> config = replace(DEFAULT_CONFIG, shade_levels=(0.55,), veil_levels=(0.03, 0.3))
    >>> grey, box = np.array([[205.0, 205, 205]]), np.array([[45.0, 45, 45]])
    >>> lit = lit_references({".": grey, "#": box}, config)
    >>> lit["."].round().tolist()  # in shadow (157) it would be the veiled box (155): left out
    [[205.0, 205.0, 205.0], [209.0, 209.0, 209.0], [245.0, 245.0, 245.0]]
    >>> lit["#"].round().tolist()
    [[45.0, 45.0, 45.0], [32.0, 32.0, 32.0], [67.0, 67.0, 67.0]]
    """
    added = {name: _lit_looks(looks, config) for name, looks in references.items()}
    depths = np.linspace(config.deepest_shadow, 1.0, 10)[:, None, None]
    result = {}
    for name, looks in references.items():
        # every other class in any shadow the spec allows, not only the shaded looks kept
        others = np.concatenate([np.vstack([(references[other] * depths).reshape(-1, 3),
                                            added[other][0]])
                                 for other in references if other != name])
        extra, veiled = added[name]
        gaps = np.linalg.norm(extra[:, None] - others[None], axis=-1) / np.minimum(
            tolerance_scale(extra, config)[:, None], tolerance_scale(others, config)[None])
        apart = gaps.min(axis=1) > config.lit_look_separation
        if intruder is not None and len(intruder):
            apart &= ~(veiled & _near_palette(extra, intruder, config.intruder_exclusion))
        result[name] = np.vstack([looks, extra[apart]]).astype(np.float32)
    return result


def class_references(normalised: np.ndarray, spec: MatSpec, ppc: int,
                     config: ReaderConfig = DEFAULT_CONFIG,
                     intruder: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Each class's looks under this photo's light: K×3 colours per class.

    The printed colour always counts; a patch adds its measured colour when it
    is near enough the printed one and unlike anything seen crossing the
    border (a shadowed or covered patch is left out).
    """
    references = printed_references(spec)
    if not spec.has_patches:
        return references
    half = max(1, round(ppc * 0.25))
    for col, name in enumerate(PATCH_CLASSES):
        x, y = patch_centre(col)
        u, v = round((x + 1) * ppc), round((y + 1) * ppc)
        measured = np.median(normalised[v - half:v + half, u - half:u + half].reshape(-1, 3),
                             axis=0)
        printed = references[name][0]
        gap = np.linalg.norm(measured - printed) / tolerance_scale(printed, config)
        covered = intruder is not None and bool(
            _near_palette(measured[None, None], intruder, config.intruder_distance).any())
        if gap <= config.patch_max_deviation and not covered:
            references[name] = np.vstack([references[name], measured])
    return references


def _all_colours(references: dict[str, np.ndarray]) -> np.ndarray:
    return np.concatenate(list(references.values()))


def tolerance_scale(colours: np.ndarray, config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray:
    """How much of the full colour tolerance each colour (…×3) gets: errors of light are
    proportional, so a dark class is judged more strictly than a bright one.

    >>> tolerance_scale(np.array([[205.0, 205, 205], [45, 45, 45]])).tolist()
    [1.0, 0.5]
    """
    return np.clip(colours.max(axis=-1) / _EMPTY[0], config.dark_tolerance_floor, 1.0)


def _quantised_far_from(colours: np.ndarray, references: dict[str, np.ndarray],
                        config: ReaderConfig, exclusion: float | None = None) -> np.ndarray:
    palette = np.unique(np.round(colours / 8) * 8, axis=0).astype(np.float32)
    if len(palette) == 0:
        return np.zeros((0, 3), np.float32)
    known = _all_colours(references)
    gaps = np.linalg.norm(palette[:, None, :] - known[None], axis=-1) / tolerance_scale(
        known, config)
    limit = config.intruder_exclusion if exclusion is None else exclusion
    return palette[gaps.min(axis=1) > limit]


def border_intrusions(normalised: np.ndarray, spec: MatSpec, ppc: int,
                      config: ReaderConfig = DEFAULT_CONFIG,
                      white: np.ndarray = _WHITE) -> tuple[np.ndarray, list]:
    """What crosses the white border: its colours (N×3 pixels) and the border cells it covers.

    Only ``white`` (the border's look, below the printed white in a channel
    the camera clipped) should be seen on these cells; anything else is an
    arm reaching in, or its shadow.
    """
    _, pixels = _border_samples(normalised, spec, ppc, config)
    far = (np.linalg.norm(pixels - white, axis=-1) > config.intruder_min_distance) & (
        pixels.max(axis=-1) > 4)
    cells = border_sample_cells(spec)
    crossed = [cell for cell, share in zip(cells, far.mean(axis=1), strict=True)
               if share > config.intruder_share]
    return pixels[far], crossed


def _entry_cells(spec: MatSpec, crossed: list, hidden_corners: set[int]) -> np.ndarray:
    """Grid cells an arm crossing the border at ``crossed`` could reach first."""
    entry = np.zeros((spec.rows, spec.cols), bool)
    for row, col in crossed:
        r = min(max(row, 0), spec.rows - 1)
        c = min(max(col, 0), spec.cols - 1)
        entry[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2] = True
    corners = [(0, 0), (0, spec.cols - 1), (spec.rows - 1, spec.cols - 1), (spec.rows - 1, 0)]
    for corner in hidden_corners:
        entry[corners[corner]] = True
    if spec.has_patches:
        entry[0, :len(PATCH_CLASSES) + 1] = True
    return entry


def _near_palette(pixels: np.ndarray, palette: np.ndarray, distance: float) -> np.ndarray:
    """…×n: which pixels (…×n×3) lie within ``distance`` of a palette colour.

    Pixels are first rounded to steps of 4 and only the distinct ones measured.
    """
    flat = pixels.reshape(-1, 3)
    if len(palette) == 0 or len(flat) == 0:
        return np.zeros(pixels.shape[:-1], bool)
    keys = np.clip(np.round(flat / 4), 0, 127).astype(np.int32)
    packed = (keys[:, 0] << 14) | (keys[:, 1] << 7) | keys[:, 2]
    distinct, inverse = np.unique(packed, return_inverse=True)
    colours = np.stack([distinct >> 14, (distinct >> 7) & 127, distinct & 127], -1) * 4.0
    near = np.zeros(len(distinct), bool)
    limit = distance * distance
    for start in range(0, len(palette), 128):
        chunk = palette[start:start + 128].astype(np.float64)
        gaps = (colours * colours).sum(1)[:, None] - 2 * colours @ chunk.T + (
            chunk * chunk).sum(1)[None]
        near |= gaps.min(axis=1) <= limit
    return near[inverse.ravel()].reshape(pixels.shape[:-1])


def _neighbours(mask: np.ndarray) -> np.ndarray:
    grown = mask.copy()
    grown[1:] |= mask[:-1]
    grown[:-1] |= mask[1:]
    grown[:, 1:] |= mask[:, :-1]
    grown[:, :-1] |= mask[:, 1:]
    return grown & ~mask


def _with_seen_empty(references: dict[str, np.ndarray], pixels: np.ndarray,
                     labels: np.ndarray) -> dict[str, np.ndarray]:
    """``references`` with the empty class's looks as seen in this photo added: the
    mean colour of each cell read as ``.``.

    A cast or a shadow moves the empty grey away from its printed colour, towards
    the shadow an arm casts on the white border; the intruder is then not followed
    over the empty cells of that look (tuning seed 2005 #23: 20 empty cells ``?``).
    """
    seen = pixels[labels == "."].mean(axis=1)
    if len(seen) == 0:
        return references
    return {**references, ".": np.vstack([references["."], seen]).astype(np.float32)}


def intruded_cells(pixels: np.ndarray, intruder: np.ndarray, entry: np.ndarray,
                   references: dict[str, np.ndarray], config: ReaderConfig) -> np.ndarray:
    """rows×cols: the cells an intruder covers, followed from where it crossed the border.

    A cell is intruded when enough of its pixels show the intruder's colours
    and it touches the border crossing or a cell already intruded. Each round
    learns the shades found next to the intruder's known ones, so an arm
    whose shade changes along its length is followed, but a piece of another
    colour beside it is not swallowed.
    """
    palette = _quantised_far_from(intruder, references, config)
    found = np.zeros(pixels.shape[:2], bool)
    candidates = entry
    for _ in range(config.intruder_growth_rounds):
        if len(palette) == 0 or not candidates.any():
            break
        near = _near_palette(pixels[candidates], palette, config.intruder_distance)
        grown = np.zeros_like(found)
        grown[candidates] = near.mean(axis=1) > config.intruder_share
        if not grown.any():
            break
        found |= grown
        close = _near_palette(pixels[grown], palette, 2 * config.intruder_distance)
        learnt = _quantised_far_from(pixels[grown][close], references, config,
                                     config.intruder_learnt_exclusion)
        palette = np.unique(np.vstack([palette, learnt]), axis=0)
        candidates = _neighbours(found)
    return found


def _colour_cells(pixels: np.ndarray, references: dict[str, np.ndarray],
                  config: ReaderConfig) -> np.ndarray:
    names = list(references)
    colours = _all_colours(references).astype(np.float32)
    owner = np.concatenate([[k] * len(references[name]) for k, name in enumerate(names)])
    scale = tolerance_scale(colours, config)
    means = pixels.mean(axis=2)
    mean_gaps = np.linalg.norm(means[..., None, :] - colours, axis=-1) / scale
    # |p − c|² as |p|² − 2 p·c + |c|²: one matrix product instead of a K-fold difference
    squared = ((pixels ** 2).sum(axis=-1)[..., None] - 2 * pixels @ colours.T
               + (colours ** 2).sum(axis=-1))
    close = squared <= config.pixel_class_distance ** 2
    gaps = np.stack([mean_gaps[..., owner == k].min(-1) for k in range(len(names))], -1)
    shares = np.stack([close[..., owner == k].any(-1).mean(axis=2) for k in range(len(names))],
                      -1)
    order = np.argsort(gaps, axis=-1)
    best, second = order[..., 0], order[..., 1]
    best_gap = np.take_along_axis(gaps, best[..., None], -1)[..., 0]
    second_gap = np.take_along_axis(gaps, second[..., None], -1)[..., 0]
    best_share = np.take_along_axis(shares, best[..., None], -1)[..., 0]
    sure = ((best_share >= config.cell_class_share) & (best_gap <= config.cell_mean_distance)
            & (second_gap - best_gap >= config.cell_margin))
    sure &= _lab_gap(means, references, names, best) <= _lab_tolerance(names, config)[best]
    return np.where(sure, np.array(names)[best], "?")


def colour_correction(pixels: np.ndarray, labels: np.ndarray,
                      config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray | None:
    """A 4×3 affine colour map (``[r g b 1] @ map``) taking this mat's colours to the
    printed ones, fitted on the cells read surely at first and the white, or None.

    The white border only fixes each channel's scale; the cards of several
    colours on the mat show how the camera mixes the channels (a real sensor's
    colour crosstalk, a cast that is not a pure gain per channel). Each class
    weighs the same; the map is drawn towards doing nothing (``colour_fit_prior``)
    and is not used unless ``colour_fit_min_classes`` coloured classes are seen.
    """
    names = [name for name in CLASS_COLOURS if (labels == name).any()]
    if sum(name not in ".#" for name in names) < config.colour_fit_min_classes:
        return None
    sources, targets, weights = [_WHITE[None]], [_WHITE[None]], [np.ones(1)]
    for name in names:
        means = pixels[labels == name].mean(axis=1)
        sources.append(means)
        targets.append(np.repeat(np.array([CLASS_COLOURS[name]], np.float32), len(means), 0))
        weights.append(np.full(len(means), 1 / len(means)))
    basis = np.column_stack([np.concatenate(sources), np.ones(sum(len(w) for w in weights))])
    weight = np.sqrt(np.concatenate(weights))[:, None]
    prior = config.colour_fit_prior
    identity = np.vstack([np.eye(3), np.zeros((1, 3))])
    scale = np.diag([1.0, 1.0, 1.0, 1 / 255.0]) * 255.0  # the offset row in colour units
    design = np.vstack([basis * weight, prior * scale])
    wanted = np.vstack([np.concatenate(targets) * weight, prior * scale @ identity])
    correction, *_ = np.linalg.lstsq(design, wanted, rcond=None)
    change = np.abs(correction[:3] - np.eye(3)).max()
    if change > config.colour_fit_max_change:
        return None
    # a map this close to doing nothing would not change a reading: save the second pass
    colours = np.array(list(CLASS_COLOURS.values()), np.float64)
    shift = np.abs(colours @ correction[:3] + correction[3] - colours).max()
    return None if shift < config.colour_fit_min_shift else correction.astype(np.float32)


def _corrected(colours: np.ndarray, correction: np.ndarray) -> np.ndarray:
    return colours @ correction[:3] + correction[3]


def to_lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB in printed units (…×3, 0..255) → CIE L*a*b* (L 0..100).

    >>> np.round(to_lab(np.array([[245.0, 245, 245]])).astype(float)).tolist()
    [[96.0, 0.0, 0.0]]
    """
    flat = np.clip(np.asarray(rgb, np.float32).reshape(-1, 1, 3) / 255, 0, 1)
    return cv2.cvtColor(flat, cv2.COLOR_RGB2Lab).reshape(np.shape(rgb))


def _lab_gap(means: np.ndarray, references: dict[str, np.ndarray], names: list[str],
             chosen: np.ndarray) -> np.ndarray:
    """Per cell: the perceptual distance (ΔE) of its mean colour to its chosen class's
    nearest look (printed colour or patch measured in this photo)."""
    cells = to_lab(means)
    gaps = np.full(means.shape[:-1], np.inf, np.float32)
    for k, name in enumerate(names):
        mine = chosen == k
        if mine.any():
            looks = to_lab(references[name])
            gaps[mine] = np.linalg.norm(cells[mine][:, None] - looks[None], axis=-1).min(axis=1)
    return gaps


def _lab_tolerance(names: list[str], config: ReaderConfig) -> np.ndarray:
    tolerances = dict(config.lab_class_tolerance)
    return np.array([tolerances.get(name, config.lab_default_tolerance) for name in names])


def _tags_cells(pixels: np.ndarray, empty_look: np.ndarray, config: ReaderConfig) -> np.ndarray:
    """``.``/``X``/``?`` per cell, comparing each pixel with the empty cell's look there."""
    gaps = np.linalg.norm(pixels - empty_look, axis=-1)
    empty = gaps <= config.pixel_class_distance
    ratios = pixels / np.maximum(empty_look, 1.0)
    level = ratios.mean(axis=-1)
    even = (ratios.max(axis=-1) - ratios.min(axis=-1)) < config.grey_chroma / _EMPTY[0]
    shadowed = ~empty & even & (level >= config.grey_min_ratio) & (level < config.grey_max_ratio)
    empty_share, shadow_share = empty.mean(axis=2), shadowed.mean(axis=2)
    mean_gap = np.linalg.norm(pixels.mean(axis=2) - empty_look.mean(axis=2), axis=-1)
    lab_gap = np.linalg.norm(to_lab(pixels.mean(axis=2)) - to_lab(empty_look.mean(axis=2)),
                             axis=-1)
    is_empty = ((empty_share >= config.cell_class_share) & (mean_gap <= config.cell_mean_distance)
                & (lab_gap <= dict(config.lab_class_tolerance)["."]))
    is_covered = empty_share + shadow_share <= config.covered_max_grey_share
    return np.where(is_empty, ".", np.where(is_covered, "X", "?"))


def washed_cells(rectified_rgb: np.ndarray, normalised: np.ndarray, spec: MatSpec, ppc: int,
                 config: ReaderConfig = DEFAULT_CONFIG,
                 tag_cells: set[tuple[int, int]] | frozenset = frozenset()) -> np.ndarray:
    """rows×cols: the cells washed out by glare (a full sensor, or brighter than paper).

    A cell holding a detected tag is not a source of glare: its white sticker
    may fill the sensor on its own.

    >>> spec = MatSpec(0, 1, 2, "tags")
    >>> flat = np.full((48, 64, 3), 205, np.uint8)
    >>> flat[16:32, 32:48] = 255                       # cell (0, 1) under a lamp's glare
    >>> washed_cells(flat, flat.astype(np.float32), spec, 16).tolist()
    [[False, True]]
    """
    raw = _cell_pixels(rectified_rgb, spec.rows, spec.cols, ppc, config)
    full = raw.min(axis=-1) >= config.saturated_level
    bright = _cell_pixels(normalised, spec.rows, spec.cols, ppc, config).max(axis=-1) > (
        _WHITE[0] * (1 + config.glare_over_white))
    washed = (full | bright).mean(axis=-1) > config.washed_share
    for row, col in tag_cells:
        washed[row, col] = False
    return washed


def glare_halo(washed: np.ndarray, config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray:
    """rows×cols: the cells next to washed-out ones, where a glare's fading halo may
    brighten a dark card until it passes for a lighter class."""
    kernel = np.ones((2 * config.glare_halo_cells + 1,) * 2, np.uint8)
    return cv2.dilate(washed.astype(np.uint8), kernel).astype(bool) & ~washed


def _brightened(labels: np.ndarray, pixels: np.ndarray, looks: dict[str, np.ndarray],
                config: ReaderConfig) -> np.ndarray:
    """rows×cols: cells whose mean lightness (L*) lies above their class's lightest look
    by more than ``config.halo_max_brightening``."""
    lightness = to_lab(pixels.mean(axis=2))[..., 0]
    limit = np.full(labels.shape, np.inf, np.float32)
    for name, colours in looks.items():
        limit[labels == name] = float(to_lab(colours)[..., 0].max())
    return lightness > limit + config.halo_max_brightening


def to_linear(rgb: np.ndarray) -> np.ndarray:
    """sRGB in printed units (0..255) → linear light (0..1), where a lamp's light adds.

    >>> to_linear(np.array([0.0, 255.0])).tolist()
    [0.0, 1.0]
    """
    unit = np.clip(np.asarray(rgb, np.float32) / 255, 0, 1)
    return np.where(unit <= 0.04045, unit / 12.92, ((unit + 0.055) / 1.055) ** 2.4)


def from_linear(linear: np.ndarray) -> np.ndarray:
    """Linear light (0..1) → sRGB in printed units (0..255), the inverse of :func:`to_linear`."""
    linear = np.clip(linear, 0, 1)
    return 255 * np.where(linear <= 0.0031308, 12.92 * linear,
                          1.055 * linear ** (1 / 2.4) - 0.055)


@lru_cache(maxsize=8)
def glare_suspects(kind: str, config: ReaderConfig = DEFAULT_CONFIG) -> frozenset[str]:
    """The classes another, darker card can pass for when a lamp adds light to it.

    Glare adds white light (in linear light) to whatever it falls on: a dark
    grey card brightened passes for the empty grey, but no card turns into a
    colour of another hue. A class is a suspect when some other printed class
    plus added white comes within its L*a*b* tolerance
    (``config.glare_reach_margin`` more); on a tags mat the empty grey always
    is, as the pieces may be any colour.

    >>> sorted(glare_suspects("colour")), sorted(glare_suspects("tags"))
    (['.', 'D', 'E'], ['.'])
    """
    if kind != "colour":
        return frozenset(".")
    tolerances = dict(config.lab_class_tolerance)
    added = np.linspace(0, 1, 201, dtype=np.float32)[:, None]
    suspects = set()
    for name, colour in CLASS_COLOURS.items():
        target = to_lab(np.array([colour], np.float32))
        limit = tolerances.get(name, config.lab_default_tolerance) + config.glare_reach_margin
        for other, dark in CLASS_COLOURS.items():
            if other == name:
                continue
            brightened = from_linear(to_linear(np.array(dark, np.float32)) + added)
            if np.linalg.norm(to_lab(brightened) - target, axis=-1).min() <= limit:
                suspects.add(name)
    return frozenset(suspects)


def _quarter_light(pixels: np.ndarray) -> np.ndarray:
    """rows×cols×4: the mean light (linear, mean of the channels) of each cell's quarters."""
    rows, cols, count, _ = pixels.shape
    side = round(count ** 0.5)
    light = to_linear(pixels).mean(axis=-1).reshape(rows, cols, side, side)
    half = side // 2
    return np.stack([light[:, :, :half, :half].mean((2, 3)),
                     light[:, :, :half, half:].mean((2, 3)),
                     light[:, :, half:, :half].mean((2, 3)),
                     light[:, :, half:, half:].mean((2, 3))], -1)


def _centre_rise(pixels: np.ndarray) -> np.ndarray:
    """rows×cols: how much lighter (linear) the middle third of each cell is than the rest."""
    rows, cols, count, _ = pixels.shape
    side = round(count ** 0.5)
    light = to_linear(pixels).mean(axis=-1).reshape(rows, cols, side, side)
    third = side // 3
    middle = light[:, :, third:side - third, third:side - third]
    rest = (light.sum((2, 3)) - middle.sum((2, 3))) / (side * side - middle[0, 0].size)
    return middle.mean((2, 3)) - rest


def _tint(labels: np.ndarray, pixels: np.ndarray, looks: dict[str, np.ndarray],
          neutral: float) -> np.ndarray:
    """rows×cols: how much more chroma (C*ab) a cell has than its class's most neutral
    look, for the neutral classes (a look under ``neutral``); 0 for the others."""
    lab = to_lab(pixels.mean(axis=2))
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    base = np.full(labels.shape, np.inf, np.float32)
    for name, colours in looks.items():
        look = to_lab(colours).reshape(-1, 3)
        least = float(np.hypot(look[:, 1], look[:, 2]).min())
        base[labels == name] = least if least < neutral else np.inf
    return np.where(np.isfinite(base), chroma - base, 0.0)


def _class_light(labels: np.ndarray, looks: dict[str, np.ndarray]) -> np.ndarray:
    """rows×cols: the light (linear, mean of the channels) of each cell's class's lightest look."""
    light = np.full(labels.shape, np.inf, np.float32)
    for name, colours in looks.items():
        light[labels == name] = float(to_linear(colours).mean(axis=-1).max())
    return light


def glare_hidden(labels: np.ndarray, pixels: np.ndarray, washed: np.ndarray, kind: str,
                 looks: dict[str, np.ndarray],
                 config: ReaderConfig = DEFAULT_CONFIG, plain: bool = True) -> np.ndarray:
    """rows×cols: the cells whose class a darker card under a lamp's glare could fake.

    Only a suspect class (:func:`glare_suspects`) can be faked, and only by
    much added light, which leaves marks: in a glare's halo (next to a
    washed-out cell) a cell is ``?`` when the light falls steeply across it
    (its quarters differ by ``halo_max_gradient``), it is far lighter than its
    class (``halo_max_brightening``) or, on a colour mat, tinted
    (``halo_max_tint`` more chroma than its class: a washed-out card turns
    greyish, never quite neutral). Anywhere — a broad glare may brighten the
    white border too, so that nothing looks washed out — the same holds for a
    steeper fall (``glare_max_gradient``) whose bright side is lighter than the
    class (``glare_min_excess``), a stronger tint (``glare_max_tint``), or a
    middle lighter than its rim by ``glare_max_rise`` (a blob centred on the
    cell lights its quarters alike; only when the empty cells are ``plain``,
    the printed grey, not a board's artwork). A
    coloured card, a dark one, or the empty grey under an even, mild
    brightening keeps its class.
    """
    suspect = np.isin(labels, sorted(glare_suspects(kind, config)))
    if not suspect.any():
        return suspect
    quarters = _quarter_light(pixels)
    gradient = quarters.max(axis=-1) - quarters.min(axis=-1)
    excess = quarters.max(axis=-1) - _class_light(labels, looks)
    tint = (_tint(labels, pixels, looks, config.halo_max_tint) if kind == "colour"
            else np.zeros(labels.shape))
    near = glare_halo(washed, config) & (
        (gradient > config.halo_max_gradient) | (tint > config.halo_max_tint)
        | _brightened(labels, pixels, looks, config))
    anywhere = ((gradient > config.glare_max_gradient) & (excess > config.glare_min_excess)
                ) | (tint > config.glare_max_tint)
    if plain:
        anywhere |= _centre_rise(pixels) > config.glare_max_rise
    return suspect & (near | anywhere)


def patterned_grey(labels: np.ndarray, pixels: np.ndarray,
                   config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray:
    """rows×cols: cells read as the empty grey whose pixels' colours vary round their
    mean by more than ``empty_max_pattern`` (RMS of a*, b*).

    The printed grey is plain. A pale striped piece washed by a lamp's glare
    averages to a near-neutral grey as light as the empty cell's, but its
    stripes keep their tints (pink and green: 21); sensor noise of σ = 8 on each
    channel gives a plain cell about 6.
    """
    empty = labels == "."
    if not empty.any():
        return empty
    ab = to_lab(pixels)[..., 1:]
    spread = np.sqrt(((ab - ab.mean(axis=2, keepdims=True)) ** 2).sum(axis=-1).mean(axis=-1))
    return empty & (spread > config.empty_max_pattern)


def normalised_mat(rectified_rgb: np.ndarray, spec: MatSpec, ppc: int,
                   config: ReaderConfig = DEFAULT_CONFIG,
                   anchors: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray | None:
    """The rectified mat divided by its white (printed units), or None if no white is seen.

    Used on a calibration photo of an empty board in its frame: the result is
    the empty cells' look that :func:`classify_cells` compares with.
    """
    positions, border = _border_samples(rectified_rgb, spec, ppc, config)
    white = fit_white(positions, border, anchors, config)
    return None if white is None else _normalised(rectified_rgb, white, ppc)


@dataclass
class FirstReading:
    """A mat's cells read against the light the border shows: the labels, the cells'
    pixels and class looks they were read with (a colour mat's second pass maps
    both), the empty cell's look (K×3, or one per cell on a frame's board) and
    the classifier, to read cells again under another light."""

    labels: np.ndarray
    pixels: np.ndarray
    references: dict[str, np.ndarray]
    empty_mean: np.ndarray
    empty_cells: np.ndarray | None
    classify: Callable[[np.ndarray], np.ndarray]


def _first_reading(pixels: np.ndarray, references: dict[str, np.ndarray], spec: MatSpec,
                   ppc: int, config: ReaderConfig, empty_look: np.ndarray | None,
                   intruder: np.ndarray) -> FirstReading:
    if spec.kind == "colour":
        labels = _colour_cells(pixels, lit_references(references, config, intruder), config)
        correction = colour_correction(pixels, labels, config)
        if correction is not None:
            pixels = _corrected(pixels, correction)
            references = {name: _corrected(looks, correction) if len(looks) > 1 else looks
                          for name, looks in references.items()}
        lit = lit_references(references, config, intruder)
        if correction is not None:
            labels = _colour_cells(pixels, lit, config)
        return FirstReading(labels, pixels, references, _EMPTY[None], None,
                            lambda cells: _colour_cells(cells, lit, config))
    if empty_look is not None:
        look = _cell_pixels(cv2.blur(empty_look, (3, 3)), spec.rows, spec.cols, ppc, config)
    else:
        look = np.broadcast_to(_EMPTY, pixels.shape)
    return FirstReading(_tags_cells(pixels, look, config), pixels, references,
                        look.reshape(-1, 3) if empty_look is not None else _EMPTY[None],
                        look.mean(axis=2), lambda cells: _tags_cells(cells, look, config))


def border_shade(normalised: np.ndarray, spec: MatSpec, ppc: int, white: np.ndarray,
                 config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray:
    """(rows+2)×(cols+2): the light on each plain border cell relative to the white
    model (NaN where the border shows no white paper, and inside the grid).

    The white model is a plane through the brighter border; a soft shadow of
    someone beside the table darkens a stretch of border and the cells beyond
    it. White paper in shadow stays white in hue: only such samples count.
    """
    field = np.full((spec.rows + 2, spec.cols + 2), np.nan, np.float32)
    positions, pixels = _border_samples(normalised, spec, ppc, config)
    ratios = pixels.mean(axis=1) / white
    level = ratios.mean(axis=-1)
    even = (ratios.max(axis=-1) - ratios.min(axis=-1)) < config.shade_max_tint * level
    plain = pixels.std(axis=1).max(axis=-1) < config.white_sample_max_std
    usable = even & plain & (level >= config.shade_min_light) & (level <= 1 + config.shade_max_tint)
    for (x, y), ratio, use in zip(positions, np.minimum(level, 1.0), usable, strict=True):
        if use:
            field[int(y + 0.5), int(x + 0.5)] = ratio
    return field


def cell_shade(reading: FirstReading, labels: np.ndarray,
               config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray:
    """rows×cols: the light on each cell read surely, relative to its class's nearest
    look, measured in that look's brightest channel (NaN for ``?``, for a piece's
    ``X``, whose artwork is unknown, and for the dark classes, whose few levels a
    sensor's offset or a colour map's shift swamp)."""
    means = reading.pixels.mean(axis=2)
    shade = np.full(labels.shape, np.nan, np.float32)
    for name, colours in reading.references.items():
        mine = labels == name
        if not mine.any() or max(CLASS_COLOURS[name]) < config.shade_min_class_light:
            continue
        if name == "." and reading.empty_cells is not None:
            looks = reading.empty_cells[mine]
        else:
            gaps = np.linalg.norm(means[mine][:, None] - colours[None], axis=-1)
            looks = colours[gaps.argmin(axis=1)]
        channel = looks.argmax(axis=-1)[:, None]
        seen = np.take_along_axis(means[mine], channel, -1)[:, 0]
        shade[mine] = seen / np.maximum(np.take_along_axis(looks, channel, -1)[:, 0], 1.0)
    return shade


def shade_field(ring: np.ndarray, cells: np.ndarray,
                config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray:
    """rows×cols: the light over the grid, filled in smoothly (normalised convolution)
    from the border's shade and the cells read surely; 1 where nothing is known."""
    known = ring.copy()
    known[1:-1, 1:-1] = cells
    weights = np.isfinite(known).astype(np.float32)
    values = np.nan_to_num(known, nan=0.0)
    filled = np.ones_like(values)
    for sigma in config.shade_sigmas_cells[::-1]:  # the finest scale with data wins
        spread = cv2.GaussianBlur(weights, (0, 0), sigma)
        level = cv2.GaussianBlur(values * weights, (0, 0), sigma)
        seen = spread > config.shade_min_weight
        filled[seen] = level[seen] / spread[seen]
    return np.minimum(filled[1:-1, 1:-1], 1.0)


def read_in_shade(reading: FirstReading, ring: np.ndarray, spec: MatSpec,
                  config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray:
    """The labels with the ``?`` cells lying in a soft shadow read again under the
    light the shadow leaves (failure report real-000: 38 empty cells in a
    shadow across the mat's corner were ``?``).

    The shadow's light is learnt from the border and from the cells read surely
    round it; each round reads the cells it reaches, which then tell the light
    further in. A cell is only read when its look under that light meets every
    test a cell in plain light must pass; what is too dark to tell stays ``?``.
    """
    labels = reading.labels
    for _ in range(config.shade_rounds):
        field = shade_field(ring, cell_shade(reading, labels, config), config)
        retry = (labels == "?") & (field < 1 - config.shade_min_darkening)
        if not retry.any():
            break
        again = reading.classify(reading.pixels / field[..., None, None])
        # a piece's artwork is X in any light already: read again, a half-lit cell
        # (a shadow's edge across it) could only pass for one
        gained = retry & (again != "?") & (again != "X")
        if not gained.any():
            break
        labels = np.where(gained, again, labels)
    return labels


LIGHTNESS_WEIGHT = 1 / 3  # unlike_the_empty: a shadow darkens, artwork tints


def _fine_grain(values: np.ndarray) -> np.ndarray:
    """rows×cols: the median size of each cell's values' (rows×cols×n, n a square number
    of pixels) second differences: a texture's grain, which a smooth gradient or one
    straight edge across the cell (a hard shadow's) hardly shows.

    >>> step = np.repeat([[0.0] * 4 + [10.0] * 4], 8, axis=0).reshape(1, 1, 64)
    >>> checks = np.indices((8, 8)).sum(axis=0).reshape(1, 1, 64) % 2 * 10.0
    >>> _fine_grain(step).tolist(), _fine_grain(checks).tolist()
    ([[0.0]], [[40.0]])
    """
    side = round(values.shape[-1] ** 0.5)
    grid = values.reshape(*values.shape[:-1], side, side)
    laplacian = (4 * grid[..., 1:-1, 1:-1] - grid[..., :-2, 1:-1] - grid[..., 2:, 1:-1]
                 - grid[..., 1:-1, :-2] - grid[..., 1:-1, 2:])
    return np.median(np.abs(laplacian).reshape(*values.shape[:-1], -1), axis=-1)


def _off_plane(values: np.ndarray) -> np.ndarray:
    """rows×cols: the spread (std) of each cell's values (rows×cols×n, n a square number of
    pixels) round the plane that fits them best: grain and pattern, not a smooth gradient.

    >>> ramp = np.tile(np.arange(4.0), 4).reshape(1, 1, 16)   # a smooth gradient: no grain
    >>> _off_plane(ramp).round(6).tolist(), _off_plane(ramp % 2).round(2).tolist()
    ([[0.0]], [[0.45]])
    """
    side = round(values.shape[-1] ** 0.5)
    ys, xs = np.mgrid[0:side, 0:side].reshape(2, -1).astype(np.float64)
    design = np.column_stack([np.ones_like(xs), xs, ys])
    fitted = values @ np.linalg.pinv(design).T @ design.T
    return (values - fitted).std(axis=-1)


def _empty_plane(labels: np.ndarray, empty: np.ndarray, looks: np.ndarray,
                 config: ReaderConfig) -> tuple[np.ndarray, np.ndarray]:
    """The mat's empty look at every cell (rows×cols×3, weighted CIELAB): a plane through
    its ``empty`` cells' looks, refitted without those far from the first fit (a piece
    read ``.``), and how far each cell lies from it; the printed grey where too few empty
    cells are seen (a small mat)."""
    cells = np.indices(labels.shape).reshape(2, -1).T
    basis = np.column_stack([np.ones(len(cells)), cells]).reshape(*labels.shape, 3)
    positions, values = cells[empty.reshape(-1)], looks[empty]
    kept = np.ones(len(values), bool)
    for _ in range(2):
        if kept.sum() < config.unlike_empty_min_cells:
            grey = to_lab(_EMPTY[None])[0] * np.array([LIGHTNESS_WEIGHT, 1.0, 1.0])
            expected = np.broadcast_to(grey, looks.shape)
            return expected, np.linalg.norm(looks - expected, axis=-1)
        expected = basis @ _plane(positions[kept], values[kept]).T  # the fit on every cell
        gap = np.linalg.norm(looks - expected, axis=-1)
        kept = gap[empty] <= max(3 * float(np.median(gap[empty][kept])), 1.0)
    return expected, gap


def _median(values: np.ndarray, where: np.ndarray, default: float) -> float:
    return float(np.median(values[where])) if where.any() else default


def unlike_the_empty(labels: np.ndarray, pixels: np.ndarray, first: np.ndarray,
                     config: ReaderConfig = DEFAULT_CONFIG,
                     tag_cells: set[tuple[int, int]] | frozenset = frozenset()) -> np.ndarray:
    """A tags mat's labels with each ``.`` cell unlike the mat's own empty cells read again.

    The printed grey is the same everywhere on one mat, so the mat's own empty cells
    tell what ``.`` looks like in this photo far better than the spec's grey does:
    their mean CIELAB look, a plane across the mat (a lamp's gradient), and how far
    they lie from it. A cell farther than that spread allows (``unlike_empty_*``)
    is a piece (``X``) or, nearer or beside a ``?`` (a hand's edge looks so too),
    ``?``: a pale piece whose artwork is a few levels from the grey passes the
    spec's tests for ``.`` but not the mat's own.
    Only cells read ``.`` in plain light (``first``: the first reading's labels)
    are compared, and lightness counts a third as much as the tint: a shadow's edge
    darkens the grey, it does not tint it.
    """
    empty = (labels == ".") & (first == ".")
    looks = to_lab(pixels.mean(axis=2)) * np.array([LIGHTNESS_WEIGHT, 1.0, 1.0])
    expected, gap = _empty_plane(labels, empty, looks, config)
    typical = max(_median(gap, empty, 0.2), 0.2)
    lab = to_lab(pixels)
    unread = (labels == "?") & (first == "?")
    tint = np.linalg.norm((looks - expected)[..., 1:], axis=-1)  # a*, b* from the empty look
    tinted = unread & _tinted(tint, lab, expected, typical, config)
    unlike = empty & (gap > config.unlike_empty_unsure) & (
        gap > config.unlike_empty_unsure_spread * typical)
    # beside a cell still unknown (a hand, a held card) it is that hand's edge as likely;
    # a tag's own cell is a piece, not unknown, and so is a tinted one
    unknown = (labels == "?") & ~tinted
    for row, col in tag_cells:
        unknown[row, col] = False
    piece = unlike & (gap > config.unlike_empty_piece) & (
        gap > config.unlike_empty_spread * typical) & ~_neighbours(unknown)
    # a cell grained like no empty cell (a marble or photo artwork as pale as the grey),
    # with no unknown cell beside it (a hand's edge is grainy too), is a piece
    grain = _fine_grain(lab[..., 0])
    textured = unread & ~tinted & ~_neighbours(unknown) & (
        grain > max(config.unlike_empty_grain,
                    config.unlike_empty_spread * _median(grain, empty, 0.5)))
    piece |= textured
    shaded = unread & ~tinted & _in_soft_shadow(tint, lab, expected, empty, config)
    labels = np.where(shaded, ".", labels)
    return np.where(piece | tinted, "X", np.where(unlike, "?", labels))


def _tinted(tint: np.ndarray, lab: np.ndarray, expected: np.ndarray, typical: float,
            config: ReaderConfig) -> np.ndarray:
    """rows×cols: cells tinted where the mat's empty cells are not, on average or in most
    of their pixels (stripes or a gradient of two hues average to a grey): a piece's
    artwork. A shadow darkens the grey and glare whitens it; neither tints it."""
    pixel_tint = np.linalg.norm(lab[..., 1:] - expected[..., None, 1:], axis=-1)
    return (((tint > config.unlike_empty_tint) & (tint > config.unlike_empty_spread * typical))
            | ((pixel_tint > config.unlike_empty_pixel_tint).mean(axis=-1)
               >= config.unlike_empty_tinted_share))


def _in_soft_shadow(tint: np.ndarray, lab: np.ndarray, expected: np.ndarray,
                    empty: np.ndarray, config: ReaderConfig) -> np.ndarray:
    """rows×cols: plain cells of the empty cells' very tint, evenly a little darker (or
    lighter) than them: empty cells in a person's soft shadow. Tint and grain are
    measured against the empty cells' own in this photo (the camera's noise); a
    shadow's edge may cross the cell, so only what a plane through its lightness leaves
    counts as grain."""
    lightness = lab[..., 0]
    shade = lightness.mean(axis=-1) / np.maximum(expected[..., 0] / LIGHTNESS_WEIGHT, 1.0)
    grain = _off_plane(lightness)
    spread = config.unlike_empty_shade_spread
    return ((tint <= max(config.unlike_empty_shade_tint, spread * _median(tint, empty, 0.0)))
            & (grain <= spread * max(_median(grain, empty, 0.5), 0.5))
            & (shade >= config.unlike_empty_min_shade) & (shade <= config.unlike_empty_max_shade))


def classify_cells(rectified_rgb: np.ndarray, spec: MatSpec, ppc: int,
                   config: ReaderConfig = DEFAULT_CONFIG,
                   tag_cells: set[tuple[int, int]] | frozenset = frozenset(),
                   visible: np.ndarray | None = None,
                   anchors: tuple[np.ndarray, np.ndarray] | None = None,
                   hidden_corners: set[int] | frozenset = frozenset(),
                   empty_look: np.ndarray | None = None) -> list[str]:
    """The rows of cell classes of a rectified mat (RGB, border included, ``ppc`` px per cell).

    ``tag_cells`` are cells holding a detected tag (``X`` on a tags mat);
    cells outside ``visible`` (a rows×cols mask) are ``?``; ``anchors`` the
    paper white (positions, RGB colours) seen on the corner markers; ``hidden_corners``
    the corner markers (0 TL … 3 BR) not seen, where an arm may have come in;
    ``empty_look`` the normalised rectified calibration photo of an empty board
    (a frame's tags mat), whose cells' look stands for ``.``.
    """
    positions, border = _border_samples(rectified_rgb, spec, ppc, config)
    white = fit_white(positions, border, anchors, config)
    if white is None:
        return ["?" * spec.cols] * spec.rows
    normalised = _normalised(rectified_rgb, white, ppc)
    pixels = _cell_pixels(normalised, spec.rows, spec.cols, ppc, config)
    gain = clipped_white_gain(pixels, clipped_channels(rectified_rgb, spec, ppc, config), config)
    if (gain < 1).any():
        normalised, pixels = normalised * gain, pixels * gain
    intruder, crossed = border_intrusions(normalised, spec, ppc, config, _WHITE * gain)
    palette = _quantised_far_from(intruder, printed_references(spec), config)
    references = class_references(normalised, spec, ppc, config, palette)
    reading = _first_reading(pixels, references, spec, ppc, config, empty_look, palette)
    pixels, references, empty_mean = reading.pixels, reading.references, reading.empty_mean
    ring = border_shade(normalised, spec, ppc, _WHITE * gain, config)
    labels = read_in_shade(reading, ring, spec, config)
    if spec.kind != "colour" and empty_look is None:
        labels = unlike_the_empty(labels, pixels, reading.labels, config, tag_cells)
    entry = _entry_cells(spec, crossed, set(hidden_corners))
    known = _with_seen_empty(references, pixels, labels)
    labels = np.where(intruded_cells(pixels, intruder, entry, known, config), "?", labels)
    washed = washed_cells(rectified_rgb, normalised, spec, ppc, config, tag_cells)
    looks = dict(references) if spec.kind == "colour" else {".": empty_mean}
    hidden = glare_hidden(labels, pixels, washed, spec.kind, looks, config,
                          plain=empty_look is None)
    if empty_look is None:
        hidden |= patterned_grey(labels, pixels, config)
    labels = np.where(washed | hidden, "?", labels)
    if spec.kind != "colour":
        for row, col in tag_cells:
            labels[row, col] = "X"
    if visible is not None:
        labels = np.where(visible, labels, "?")
    return ["".join(row) for row in labels]
