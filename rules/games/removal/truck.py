"""Removal's truck: geometry, loading rules, damage, symbols and the drive score.

Pure and fast: a truck is a small set of integer bitmasks. Cell ``(row, col)``
of a truck ``rows × cols`` is bit ``row * cols + col``; the floor is the row
just below the last one (bits ``rows * cols ...``), so "the cell under a
square" is always "the bit ``cols`` higher". Every tile's distinct
orientations are computed once and cached.

Example::

    >>> truck = Truck(["....", "...."])
    >>> piano = TileSpec("piano", ("##", "##"), heavy=True)
    >>> truck.place(piano, 0, 0).damaged
    []
    >>> [(p.row, p.col) for p in truck.legal_placements(TileSpec("cup", ("#",)))]
    [(1, 2), (1, 3)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from rules.errors import IllegalAction

ROTATIONS = (0, 90, 180, 270)
HELPER_IGNORE = 1  # no damage, heavy needs no floor, upright may turn
HELPER_REACH = 2  # take an unavailable item lying directly above an available one
HELPER_OVERLAP = 3  # overlap allowed, plus the effects of Helper 1
FINAL_MINUS_LIMIT = 10  # at the final drive, this many visible "−1" make the truck worth 0

NO_CONTACT = "no square rests on the floor or an item"


@dataclass(frozen=True)
class TileSpec:
    """What the loading rules need to know about one tile (an Item or a Box).

    ``shape`` rows use ``#`` for the tile's squares; ``delicate`` is
    ``(plus, minus)`` or None.
    """

    name: str
    shape: tuple[str, ...]
    heavy: bool = False
    delicate: tuple[int, int] | None = None
    upright: bool = False
    antique: bool = False
    box: bool = False
    symbol: str | None = None


@dataclass(frozen=True)
class Orientation:
    """One way to lay a shape: its ``rotation``/``flip`` and the squares it covers."""

    rotation: int
    flip: bool
    cells: tuple[tuple[int, int], ...]
    height: int
    width: int


@dataclass(frozen=True)
class Placement:
    """A legal placement and the delicate tiles it would damage (by name)."""

    row: int
    col: int
    rotation: int
    flip: bool
    damaged: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"row": self.row, "col": self.col, "rotation": self.rotation,
                "flip": self.flip, "damaged": list(self.damaged)}


@dataclass
class LoadResult:
    """What a placement did: the tiles it damaged and whether it grants an extra action."""

    damaged: list[str]
    extra_action: bool


@dataclass
class DriveScore:
    """The points of one drive, as in docs/formats.md §4."""

    base: int
    minus: int
    heavy: int
    delicate: int

    @property
    def total(self) -> int:
        return self.base + self.minus + self.heavy + self.delicate

    def to_json(self) -> dict[str, int]:
        return {"base": self.base, "minus": self.minus, "heavy": self.heavy,
                "delicate": self.delicate, "total": self.total}


@dataclass
class LoadedTile:
    """A tile in the truck: where it lies, whether it is damaged, whether its symbol is used."""

    spec: TileSpec
    row: int
    col: int
    rotation: int
    flip: bool
    mask: int
    damaged: bool = False
    paired: bool = False
    index: int = field(default=0)


# -- shapes -----------------------------------------------------------------------------
def shape_cells(shape: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """The squares of a ``#`` shape, moved so that their bounding box starts at (0, 0)."""
    cells = [(r, c) for r, line in enumerate(shape) for c, char in enumerate(line) if char == "#"]
    if not cells:
        raise ValueError("a shape needs at least one '#' square")
    return _normalise(cells)


def _normalise(cells: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def transform(cells: tuple[tuple[int, int], ...], rotation: int, flip: bool
              ) -> tuple[tuple[int, int], ...]:
    """Mirror left↔right first (when ``flip``), then turn clockwise by ``rotation`` degrees."""
    if rotation not in ROTATIONS:
        raise ValueError(f"rotation must be one of {ROTATIONS}")
    result = list(cells)
    if flip:
        width = max(c for _, c in result) + 1
        result = [(r, width - 1 - c) for r, c in result]
    for _ in range(rotation // 90):
        height = max(r for r, _ in result) + 1
        result = [(c, height - 1 - r) for r, c in result]
    return _normalise(result)


@cache
def oriented_cells(shape: tuple[str, ...], rotation: int, flip: bool
                   ) -> tuple[tuple[int, int], ...]:
    """The squares of ``shape`` flipped then turned (cached: shapes are few)."""
    return transform(shape_cells(shape), rotation, flip)


@cache
def orientations(shape: tuple[str, ...], upright: bool = False) -> tuple[Orientation, ...]:
    """The distinct ways to lay ``shape``, each footprint once (``upright``: rotation 0 only).

    Order: no flip at 0, 90, 180, 270 degrees, then flipped; a symmetric shape
    keeps the first of equal footprints.
    """
    base = shape_cells(shape)
    seen: set[tuple[tuple[int, int], ...]] = set()
    result = []
    for flip in (False, True):
        for rotation in (0,) if upright else ROTATIONS:
            cells = transform(base, rotation, flip)
            if cells in seen:
                continue
            seen.add(cells)
            height = max(r for r, _ in cells) + 1
            width = max(c for _, c in cells) + 1
            result.append(Orientation(rotation, flip, cells, height, width))
    return tuple(result)


def ignores_characteristics(helpers: Iterable[int]) -> bool:
    """True when Helper 1 or 3 is played: no damage, no heavy rule, upright may turn."""
    return any(helper in (HELPER_IGNORE, HELPER_OVERLAP) for helper in helpers)


# -- the truck --------------------------------------------------------------------------
class Truck:
    """One truck's load space and the tiles in it; see the module docstring for the bits."""

    def __init__(self, layout: Sequence[str]) -> None:
        self.layout = tuple(layout)
        self.rows = len(self.layout)
        self.cols = len(self.layout[0])
        self.loadable = self._mask_of(".-")
        self.body = self._mask_of("#")
        self.minus = self._mask_of("-")
        self.floor = ((1 << self.cols) - 1) << (self.rows * self.cols)
        self.cell_of = _cells_by_bit(self.rows, self.cols)  # bit -> (row, col)
        self.tiles: list[LoadedTile] = []
        self.names: set[str] = set()
        self.occupied = 0
        self.heavy_cells = 0
        self.top_owner: list[int] = [-1] * (self.rows * self.cols)
        self.overlapped = False  # some tiles overlap (Helper 3)
        self._anchor_cache: dict[tuple, list[tuple[int, bool, int]]] = {}  # until the load changes

    def _mask_of(self, chars: str) -> int:
        mask = 0
        for r, line in enumerate(self.layout):
            for c, char in enumerate(line):
                if char in chars:
                    mask |= 1 << (r * self.cols + c)
        return mask

    # -- queries --------------------------------------------------------------------
    def visible_minus(self) -> int:
        """How many "−1" squares no tile covers."""
        return (self.minus & ~self.occupied).bit_count()

    def has(self, name: str) -> bool:
        """True when a tile called ``name`` is in the truck."""
        return name in self.names

    def footprint(self, cells: Iterable[tuple[int, int]], row: int, col: int) -> int | None:
        """The bitmask of ``cells`` laid at (row, col), or None if a square leaves the truck."""
        mask = 0
        for r, c in cells:
            r, c = r + row, c + col
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                return None
            mask |= 1 << (r * self.cols + c)
        return mask

    def drive_score(self, final: bool = False) -> DriveScore:
        """The drive's points (docs/formats.md §4); ``final`` applies the 10-or-more "−1" rule."""
        visible = self.visible_minus()
        heavy = sum(1 for tile in self.tiles if tile.spec.heavy)
        delicate = sum(
            tile.spec.delicate[1 if tile.damaged else 0]
            for tile in self.tiles if tile.spec.delicate is not None
        )
        if final and visible >= FINAL_MINUS_LIMIT:
            return DriveScore(0, 0, heavy, delicate)
        return DriveScore(10, 3 if visible == 0 else -visible, heavy, delicate)

    # -- loading ----------------------------------------------------------------------
    def check(self, spec: TileSpec, row: int, col: int, rotation: int = 0, flip: bool = False,
              helpers: Iterable[int] = ()) -> tuple[int, list[LoadedTile]]:
        """The footprint and the tiles it would damage; raises IllegalAction with a reason."""
        helpers = set(helpers)
        ignore = ignores_characteristics(helpers)
        overlap = HELPER_OVERLAP in helpers
        if self.has(spec.name):
            raise IllegalAction(f"{spec.name} is already in the truck")
        if spec.upright and rotation != 0 and not ignore:
            raise IllegalAction(f"{spec.name} must stand upright: rotation 0 only (flip allowed)")
        mask = self.footprint(oriented_cells(spec.shape, rotation, flip), row, col)
        if mask is None:
            raise IllegalAction(f"{spec.name} does not fit inside the truck there")
        if mask & self.body:
            raise IllegalAction(f"{spec.name} would cover the truck's body")
        if not overlap and mask & self.occupied:
            owner = self.tiles[self.top_owner[(mask & self.occupied).bit_length() - 1]]
            raise IllegalAction(f"{spec.name} would overlap {owner.spec.name}")
        below = (mask << self.cols) & (self.floor | self.body | self.occupied)
        if not below and not (overlap and mask & self.occupied):
            raise IllegalAction(NO_CONTACT)
        if spec.heavy and not ignore and not (mask << self.cols) & self._heavy_support():
            raise IllegalAction(
                f"{spec.name} is heavy: a square must rest on the floor or another heavy item")
        return mask, self._damage(spec, below, ignore)

    def _heavy_support(self) -> int:
        """Floor, body and the cells where a heavy tile is the topmost tile."""
        if not self.overlapped:
            return self.floor | self.body | self.heavy_cells
        heavy_on_top = sum(1 << bit for bit in _bits(self.heavy_cells)
                           if self.tiles[self.top_owner[bit]].spec.heavy)
        return self.floor | self.body | heavy_on_top

    def _damage(self, spec: TileSpec, contacts: int, ignore: bool) -> list[LoadedTile]:
        """Delicate tiles carrying more than half of ``contacts`` (squares resting on something)."""
        if ignore or spec.delicate is not None or not contacts:
            return []
        total = contacts.bit_count()
        damaged = []
        for tile in self.tiles:
            if tile.spec.delicate is None or tile.damaged:
                continue
            resting = (contacts & self._top_mask(tile)).bit_count()
            if 2 * resting > total:
                damaged.append(tile)
        return damaged

    def _top_mask(self, tile: LoadedTile) -> int:
        """The cells where ``tile`` is the topmost tile (all of them unless overlapped)."""
        if not self.overlapped:
            return tile.mask
        return sum(1 << bit for bit in _bits(tile.mask) if self.top_owner[bit] == tile.index)

    def place(self, spec: TileSpec, row: int, col: int, rotation: int = 0, flip: bool = False,
              helpers: Iterable[int] = (), extra_turn: bool = False) -> LoadResult:
        """Load ``spec`` if legal (else IllegalAction, truck unchanged); damage and symbols follow.

        ``extra_turn``: this placement is itself the extra action granted just
        before, so a pair it makes is used up and grants nothing.
        """
        mask, damaged = self.check(spec, row, col, rotation, flip, helpers)
        for tile in damaged:
            tile.damaged = True
        partner = self.unpaired_partner(spec.symbol)
        if partner is not None:
            partner.paired = True
        self.add(LoadedTile(spec, row, col, rotation, flip, mask, paired=partner is not None))
        return LoadResult([tile.spec.name for tile in damaged],
                          partner is not None and not extra_turn)

    def unpaired_partner(self, symbol: str | None) -> LoadedTile | None:
        """The first tile in the truck whose unused symbol is ``symbol``, if any."""
        if symbol is None:
            return None
        for tile in self.tiles:
            if not tile.paired and tile.spec.symbol == symbol:
                return tile
        return None

    def add(self, tile: LoadedTile) -> None:
        """Put an already checked tile in (also used to rebuild a truck from a record)."""
        tile.index = len(self.tiles)
        if self.occupied & tile.mask:
            self.overlapped = True
        self._anchor_cache = {}
        self.tiles.append(tile)
        self.names.add(tile.spec.name)
        self.occupied |= tile.mask
        if tile.spec.heavy:
            self.heavy_cells |= tile.mask
        for bit in _bits(tile.mask):
            self.top_owner[bit] = tile.index

    def empty(self) -> list[LoadedTile]:
        """Unload every tile (after a drive) and return them in loading order."""
        tiles = self.tiles
        self.tiles = []
        self.names = set()
        self.occupied = self.heavy_cells = 0
        self.top_owner = [-1] * (self.rows * self.cols)
        self.overlapped = False
        self._anchor_cache = {}
        return tiles

    # -- every legal placement ----------------------------------------------------------
    def legal_placements(self, spec: TileSpec, helpers: Iterable[int] = (),
                         with_damage: bool = True) -> list[Placement]:
        """Every legal (row, col, rotation, flip), each distinct footprint once, with its damage.

        Sorted by row, col, flip, rotation. ``with_damage=False`` skips working
        out the damage (``damaged`` stays empty).
        """
        helpers = set(helpers)
        check_damage = (with_damage and not ignores_characteristics(helpers)
                        and self._delicate_inside())
        support = self.floor | self.body | self.occupied
        result = []
        for row, col, rotation, flip in self.placement_keys(spec, helpers):
            damaged: tuple[str, ...] = ()
            if check_damage:
                mask = self.footprint(oriented_cells(spec.shape, rotation, flip), row, col) or 0
                hurt = self._damage(spec, (mask << self.cols) & support, ignore=False)
                damaged = tuple(tile.spec.name for tile in hurt)
            result.append(Placement(row, col, rotation, flip, damaged))
        result.sort(key=lambda p: (p.row, p.col, p.flip, p.rotation))
        return result

    def placement_keys(self, spec: TileSpec, helpers: Iterable[int] = ()
                       ) -> list[tuple[int, int, int, bool]]:
        """The fast core of :meth:`legal_placements`: (row, col, rotation, flip) tuples."""
        cols = self.cols
        keys = []
        for rotation, flip, anchors in self.anchor_masks(spec, helpers):
            while anchors:
                low = anchors & -anchors
                row, col = divmod(low.bit_length() - 1, cols)
                keys.append((row, col, rotation, flip))
                anchors ^= low
        return keys

    def anchor_masks(self, spec: TileSpec, helpers: Iterable[int] = ()
                     ) -> list[tuple[int, bool, int]]:
        """Per distinct orientation: rotation, flip and the bitmask of every legal anchor
        (top-left cell, bit ``row * cols + col``), all anchors tested at once."""
        if spec.name in self.names:
            return []
        if helpers:
            helpers = set(helpers)
            ignore = ignores_characteristics(helpers)
            overlap = HELPER_OVERLAP in helpers
        else:
            ignore = overlap = False
        key = (spec.shape, spec.heavy and not ignore, spec.upright and not ignore, overlap)
        found = self._anchor_cache.get(key)
        if found is None:
            found = self._anchor_cache[key] = self._compute_anchor_masks(*key)
        return found

    def _compute_anchor_masks(self, shape: tuple[str, ...], heavy: bool, upright: bool,
                              overlap: bool) -> list[tuple[int, bool, int]]:
        free = self.loadable if overlap else self.loadable & ~self.occupied
        cols = self.cols
        # What a square at bit b rests on is bit b of ``resting`` (the cell below it, or,
        # with Helper 3, a tile under the square itself). Without Helper 3 only a square
        # with no square of the same tile right under it can rest on something: under the
        # others lies a square of the tile, free, so neither floor, body nor a tile.
        resting = (self.floor | self.body | self.occupied) >> cols
        if overlap:
            resting |= self.occupied
        heavy_resting = self._heavy_support() >> cols if heavy else 0
        result = []
        for rotation, flip, offsets, lowest, anchors in _laid(shape, upright, self.rows, cols):
            for offset in offsets:
                anchors &= free >> offset
            if not anchors:
                continue
            resting_squares = offsets if overlap else lowest
            touches = 0
            for offset in resting_squares:
                touches |= resting >> offset
            anchors &= touches
            if heavy_resting and anchors:
                touches = 0
                for offset in resting_squares:
                    touches |= heavy_resting >> offset
                anchors &= touches
            if anchors:
                result.append((rotation, flip, anchors))
        return result

    def _delicate_inside(self) -> bool:
        return any(tile.spec.delicate is not None for tile in self.tiles)


@cache
def _laid(shape: tuple[str, ...], upright: bool, rows: int, cols: int
          ) -> tuple[tuple[int, bool, tuple[int, ...], tuple[int, ...], int], ...]:
    """Per distinct orientation in a ``rows × cols`` truck: rotation, flip, the squares'
    bit offsets from the anchor, the offsets of the squares with no square of the tile
    right under them, and the bits of the anchors that keep it inside."""
    laid = []
    for orientation in orientations(shape, upright):
        cells = orientation.cells
        laid.append((orientation.rotation, orientation.flip,
                     tuple(r * cols + c for r, c in cells),
                     tuple(r * cols + c for r, c in cells if (r + 1, c) not in cells),
                     _anchor_range(rows, cols, orientation.height, orientation.width)))
    return tuple(laid)


@cache
def _cells_by_bit(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """(row, col) of each bit of a ``rows × cols`` truck, indexed by the bit."""
    return tuple(divmod(bit, cols) for bit in range(rows * cols))


@cache
def _anchor_range(rows: int, cols: int, height: int, width: int) -> int:
    """Bits of the anchors from which a ``height × width`` box stays inside the truck."""
    mask = 0
    for r in range(rows - height + 1):
        for c in range(cols - width + 1):
            mask |= 1 << (r * cols + c)
    return mask


def _bits(mask: int) -> Iterable[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
