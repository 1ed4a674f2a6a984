"""The printed kit, drawn from visual-spec.md: mats, cards, pieces and tags.

Everything is drawn flat, seen from straight above, in a mat's own texture at
``PPC`` texture pixels per cell, as linear-light albedo (what fraction of the
light the paper or card sends back, per channel) with an alpha and a gloss
channel. Geometry in cells: the paper is ``cols + 3`` by ``rows + 3`` cells (a
one-cell border and a half-cell margin round the grid); grid position
(row, col) = (0, 0) is the grid's top-left corner, 1.5 cells in from the
paper's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import cv2
import numpy as np

from devkit.vision.photoshoot import textures

PPC = 60  # texture pixels per cell: 0.8 s markers are 48 px = 6 bits of 8 px
WHITE = (245, 245, 245)
LINE = (150, 150, 150)
COLOURS = {".": (205, 205, 205), "#": (45, 45, 45), "A": (200, 45, 45),
           "B": (235, 195, 35), "C": (45, 150, 75), "D": (45, 90, 195),
           "E": (125, 65, 155)}
PATCH_ORDER = "ABCDE#"
MAT_DICT = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
TAG_DICT = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
WHITE_LINEAR = float(textures.srgb8_to_linear(245))


@dataclass(frozen=True)
class MatSpec:
    """One mat of MATS.json, with the cell side it is printed at."""

    id: int
    rows: int
    cols: int
    kind: str  # "colour" or "tags"
    cell_mm: float = 20.0

    def to_json(self) -> dict:
        return {"id": self.id, "rows": self.rows, "cols": self.cols, "kind": self.kind}

    @property
    def paper_cells(self) -> tuple[int, int]:
        """(width, height) of the paper in cells."""
        return self.cols + 3, self.rows + 3


@dataclass
class Sheet:
    """A flat printed thing as seen from above: linear albedo, alpha, gloss."""

    albedo: np.ndarray  # (H, W, 3) float32
    alpha: np.ndarray  # (H, W) float32
    gloss: np.ndarray  # (H, W) float32, 0 matte .. 1 glossy print


@dataclass
class Card:
    """A Small Warehouse card as laid: squares already turned, top-left cell,
    and how far off the grid it lies (cells, degrees)."""

    squares: list[str]
    row: int
    col: int
    dx: float = 0.0
    dy: float = 0.0
    angle: float = 0.0
    margin: float = 0.03
    stock: tuple[int, int, int] = (244, 242, 236)
    gloss: float = 0.0


@dataclass
class Piece:
    """A piece with one tag sticker, as laid on a tags mat."""

    shape: list[str]  # '#' squares, already turned
    row: int
    col: int
    tag: int | None  # None: a piece with no sticker
    tag_cell: tuple[int, int]  # within the turned shape
    rotation: int  # the tag's clockwise turn against the mat
    art_seed: int = 0
    dx: float = 0.0
    dy: float = 0.0
    angle: float = 0.0
    inset: float = 0.04
    height_mm: float = 2.0


@dataclass
class MatContents:
    cards: list[Card] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)


def grid_to_px(row: float, col: float) -> tuple[float, float]:
    """Grid position (row, col) in cells to texture pixels (x, y)."""
    return (1.5 + col) * PPC, (1.5 + row) * PPC


def turn(shape: list[str], rotation: int) -> list[str]:
    """Turn a shape clockwise by 0/90/180/270."""
    grid = np.array([list(row) for row in shape])
    return ["".join(row) for row in np.rot90(grid, -(rotation // 90) % 4)]


def turn_cell(shape: list[str], cell: tuple[int, int], rotation: int) -> tuple[int, int]:
    """Where ``cell`` of ``shape`` goes when the shape turns clockwise."""
    index = np.arange(len(shape) * len(shape[0])).reshape(len(shape), len(shape[0]))
    turned = np.rot90(index, -(rotation // 90) % 4)
    row, col = np.argwhere(turned == cell[0] * len(shape[0]) + cell[1])[0]
    return int(row), int(col)


# --- the mat ---------------------------------------------------------------

def draw_mat(spec: MatSpec, rng: np.random.Generator, paper_tint, fibre: float,
             gloss: float) -> Sheet:
    """The printed mat on its paper: border, markers, patches, grid."""
    width, height = (n * PPC for n in spec.paper_cells)
    ink = np.full((height, width, 3), WHITE, np.uint8)
    _draw_grid(ink, spec)
    for corner, (row, col) in enumerate([(-0.5, -0.5), (-0.5, spec.cols + 0.5),
                                         (spec.rows + 0.5, spec.cols + 0.5),
                                         (spec.rows + 0.5, -0.5)]):
        marker = cv2.aruco.generateImageMarker(MAT_DICT, 4 * spec.id + corner, int(0.8 * PPC))
        _put_square(ink, np.repeat(marker[..., None], 3, axis=2), row, col)
    if spec.kind == "colour":
        for index, name in enumerate(PATCH_ORDER[:min(6, spec.cols)]):
            patch = np.full((int(0.8 * PPC), int(0.8 * PPC), 3), COLOURS[name], np.uint8)
            _put_square(ink, patch, -0.5, index + 0.5)
    paper = WHITE_LINEAR * np.asarray(paper_tint, np.float32)
    grain = textures.grain(rng, height, width, fibre, zoom=rng.uniform(1.5, 3.0),
                           name=str(rng.choice(["grass", "gravel"])))
    transmit = textures.srgb8_to_linear(ink) / WHITE_LINEAR
    albedo = (transmit * paper * grain[..., None]).astype(np.float32)
    return Sheet(albedo, np.ones((height, width), np.float32),
                 np.full((height, width), gloss, np.float32))


def _draw_grid(ink: np.ndarray, spec: MatSpec) -> None:
    x0, y0 = grid_to_px(0, 0)
    x1, y1 = grid_to_px(spec.rows, spec.cols)
    ink[int(y0):int(y1), int(x0):int(x1)] = COLOURS["."]
    half = PPC / 80  # lines of s/40
    for col in range(spec.cols + 1):
        x = x0 + col * PPC
        ink[int(y0 - half):int(np.ceil(y1 + half)),
            round(x - half):round(x + half)] = LINE
    for row in range(spec.rows + 1):
        y = y0 + row * PPC
        ink[round(y - half):round(y + half),
            int(x0 - half):int(np.ceil(x1 + half))] = LINE


def _put_square(ink: np.ndarray, square: np.ndarray, row: float, col: float) -> None:
    """Paste a square image centred on grid position (row, col)."""
    cx, cy = grid_to_px(row, col)
    side = square.shape[0]
    top, left = round(cy - side / 2), round(cx - side / 2)
    ink[top:top + side, left:left + side] = square


# --- cards and pieces ----------------------------------------------------------

def card_image(card: Card, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A card in its own frame (1 cell = PPC px): linear albedo and alpha."""
    rows, cols = len(card.squares), len(card.squares[0])
    height, width = rows * PPC, cols * PPC
    stock = textures.srgb8_to_linear(card.stock)
    albedo = np.empty((height, width, 3), np.float32)
    albedo[:] = stock
    alpha = np.zeros((height, width), np.float32)
    edge = round(card.margin * PPC)
    for r, line in enumerate(card.squares):
        for c, name in enumerate(line):
            if name == ".":
                continue  # a cut-out: no card there
            alpha[r * PPC:(r + 1) * PPC, c * PPC:(c + 1) * PPC] = 1
            albedo[r * PPC + edge:(r + 1) * PPC - edge,
                   c * PPC + edge:(c + 1) * PPC - edge] = textures.srgb8_to_linear(COLOURS[name])
    albedo *= _card_grain(rng, height, width)[..., None]
    return albedo, alpha


@cache
def _card_fibre() -> np.ndarray:
    return textures.grain(np.random.default_rng(11), 8 * PPC, 8 * PPC, 0.02, name="grass")


def _card_grain(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A card stock's fibre: a window of one large grain texture."""
    fibre = _card_fibre()
    if height > fibre.shape[0] or width > fibre.shape[1]:
        return textures.grain(rng, height, width, 0.02, name="grass")
    top = int(rng.integers(0, fibre.shape[0] - height + 1))
    left = int(rng.integers(0, fibre.shape[1] - width + 1))
    return fibre[top:top + height, left:left + width]


def piece_image(piece: Piece) -> tuple[np.ndarray, np.ndarray]:
    """A piece (a cardboard tile with artwork and its tag sticker)."""
    rng = np.random.default_rng(piece.art_seed)
    rows, cols = len(piece.shape), len(piece.shape[0])
    height, width = rows * PPC, cols * PPC
    mask = np.zeros((height, width), np.uint8)
    for r, line in enumerate(piece.shape):
        for c, name in enumerate(line):
            if name == "#":
                mask[r * PPC:(r + 1) * PPC, c * PPC:(c + 1) * PPC] = 255
    inset = max(1, round(piece.inset * PPC))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * inset + 1, 2 * inset + 1))
    mask = cv2.erode(mask, kernel)
    albedo = textures.artwork(rng, height, width)
    rim = mask.astype(np.float32) / 255 - cv2.erode(mask, np.ones((3, 3), np.uint8)) / 255.0
    albedo *= (1 - 0.5 * rim)[..., None]  # the cardboard's cut edge
    _put_tag(albedo, piece)
    return albedo, mask.astype(np.float32) / 255


def _put_tag(albedo: np.ndarray, piece: Piece) -> None:
    if piece.tag is None:
        return
    row, col = piece.tag_cell
    cy, cx = (row + 0.5) * PPC, (col + 0.5) * PPC
    white = round(0.9 * PPC)
    top, left = round(cy - white / 2), round(cx - white / 2)
    albedo[top:top + white, left:left + white] = textures.srgb8_to_linear(WHITE)
    marker = cv2.aruco.generateImageMarker(TAG_DICT, piece.tag, round(0.7 * PPC))
    marker = np.rot90(marker, -(piece.rotation // 90) % 4)
    side = marker.shape[0]
    top, left = round(cy - side / 2), round(cx - side / 2)
    albedo[top:top + side, left:left + side] = textures.srgb8_to_linear(
        np.repeat(marker[..., None], 3, axis=2))


def paste(sheet: Sheet, albedo: np.ndarray, alpha: np.ndarray, row: float, col: float,
          angle: float, gloss: float, shadow: float = 0.0) -> None:
    """Lay a thing drawn in its own frame onto a mat at grid (row, col), turned
    ``angle`` degrees about its centre (small: a hand never lays it exactly)."""
    height, width = alpha.shape
    x, y = grid_to_px(row, col)
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), -angle, 1.0)
    matrix[:, 2] += (x, y)
    corners = np.array([[0, 0, 1], [width, 0, 1], [width, height, 1], [0, height, 1]]) @ matrix.T
    pad = int(PPC * 0.2)
    left, top = np.maximum(np.floor(corners.min(axis=0)).astype(int) - pad, 0)
    right = min(int(np.ceil(corners[:, 0].max())) + pad, sheet.alpha.shape[1])
    bottom = min(int(np.ceil(corners[:, 1].max())) + pad, sheet.alpha.shape[0])
    if right <= left or bottom <= top:
        return
    matrix[:, 2] -= (left, top)
    size = (right - left, bottom - top)
    warped = cv2.warpAffine(np.dstack([albedo, alpha]), matrix, size, flags=cv2.INTER_LINEAR)
    warped_alpha = warped[..., 3]
    view = sheet.albedo[top:bottom, left:right]
    if shadow > 0:  # a thick tile darkens the paper round its foot
        foot = cv2.GaussianBlur(warped_alpha, (0, 0), PPC * 0.04)
        foot = np.roll(foot, (2, 2), axis=(0, 1))
        view *= (1 - shadow * foot)[..., None]
    a = warped_alpha[..., None]
    view[:] = view * (1 - a) + warped[..., :3] * a
    shine = sheet.gloss[top:bottom, left:right]
    shine[:] = shine * (1 - warped_alpha) + gloss * warped_alpha


def lay(sheet: Sheet, contents: MatContents, rng: np.random.Generator) -> None:
    """Lay the cards (in order: later on top) and pieces on a drawn mat."""
    for card in contents.cards:
        albedo, alpha = card_image(card, rng)
        paste(sheet, albedo, alpha, card.row + card.dy, card.col + card.dx, card.angle,
              card.gloss)
    for piece in contents.pieces:
        albedo, alpha = piece_image(piece)
        paste(sheet, albedo, alpha, piece.row + piece.dy, piece.col + piece.dx, piece.angle,
              0.1, shadow=0.3)


def cells_of(spec: MatSpec, contents: MatContents) -> list[str]:
    """What is printed or laid on each cell, in the §6 alphabet."""
    grid = [["."] * spec.cols for _ in range(spec.rows)]
    for card in contents.cards:
        for r, line in enumerate(card.squares):
            for c, name in enumerate(line):
                if name != ".":
                    grid[card.row + r][card.col + c] = name
    for piece in contents.pieces:
        for r, line in enumerate(piece.shape):
            for c, name in enumerate(line):
                if name == "#":
                    grid[piece.row + r][piece.col + c] = "X"
    return ["".join(row) for row in grid]


def tags_of(contents: MatContents) -> list[dict]:
    """Every tag on the mat: id, the cell holding its centre, its rotation."""
    return [{"id": p.tag, "row": p.row + p.tag_cell[0], "col": p.col + p.tag_cell[1],
             "rotation": p.rotation} for p in contents.pieces if p.tag is not None]
