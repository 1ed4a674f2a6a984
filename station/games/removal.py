"""Removal in the station: a truck frame per player, tagged tiles laid in it."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from rules import Action, State
from rules.games.removal.referee import Referee
from station.catalogue.copy import (
    DELICATE_BAD,
    DELICATE_GOOD,
    MAX_BOX_VALUE,
    piece_id,
    pieces_of,
    tag_of,
)
from station.catalogue.form import (
    Question,
    choice_answer,
    delicate_answer,
    number_answer,
    optional,
    text_answer,
    yes_no,
)
from station.catalogue.learn import Lesson, shaped_piece
from station.games.camera import CameraLayout, one_mat_each
from station.games.record import CameraWiring, CatalogueWiring, GameRecord
from station.games.views import Cell, cell
from station.games.words import actor, at, plain
from station.inputs.removal import score_document
from station.jsonin import Node

NAME = "removal"
LEGEND = ("Each tile is an item, named on it · dark square: no space in the truck · "
          "“−1”: a square that costs a point while it shows")


def view(state: State) -> dict[str, Any]:
    """Each truck: tiles by item, damage marked, visible "−1" squares marked."""
    from rules.games.removal.truck import shape_cells, transform

    catalogue = state.setup["catalogue"]
    shapes = {item["id"]: item for item in catalogue["items"] + catalogue.get("boxes", [])}
    layouts = catalogue["trucks"]
    boards = []
    for index, (player, data) in enumerate(zip(state.players, state.data["players"], strict=True)):
        layout = layouts[index % len(layouts)]
        rows: list[list[Cell]] = [
            [cell("−1", "", "minus") if char == "-" else cell("", "", "wall") if char == "#"
             else None for char in line] for line in layout]
        for tile in data["truck"]:
            item = shapes[tile["item"]]
            for r, c in transform(shape_cells(item["shape"]), tile["rotation"], tile["flip"]):
                rows[tile["row"] + r][tile["col"] + c] = cell(
                    item.get("name", tile["item"])[:3], tile["item"],
                    "damaged" if tile.get("damaged") else "")
        boards.append({"title": f"{player}'s truck (track {data['track']})", "rows": rows})
    names = {piece_id: item.get("name", piece_id) for piece_id, item in shapes.items()}
    lines = [f"Round {state.data.get('round')}"] + [
        f"{player}: {_storage_words(data['storage'], names)} · {_helper_words(data['helpers'])}"
        for player, data in zip(state.players, state.data["players"], strict=True)]
    return {"boards": boards, "lines": lines}


def _storage_words(stored: str | None, names: dict[str, str]) -> str:
    """``the backpack in storage`` or ``storage empty``."""
    return f"the {names.get(stored, stored)} in storage" if stored else "storage empty"


def _helper_words(helpers: list[int]) -> str:
    """``helper cards 1 and 3 left``, ``helper card 2 left``, ``no helper card left``."""
    cards = [str(card) for card in helpers]
    if not cards:
        return "no helper card left"
    listed = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]
    return f"helper card{'s' if len(cards) > 1 else ''} {listed} left"


def describe(state: State, action: Action) -> str:
    """"Ben loaded the piano at row 2, column 3", "Ana stored the lamp", ... (``state`` before)."""
    who, kind = actor(state), action["type"]
    catalogue = state.setup["catalogue"]
    names = {piece["id"]: piece["name"] for piece in [*catalogue["items"], *catalogue["boxes"]]}
    item = names.get(action.get("item", ""), action.get("item", "an item"))
    turned = (f", turned {int(action['rotation'])}°" if action.get("rotation") else "") + (
        ", flipped" if action.get("flip") else "")  # rotation in degrees, as the engine has it
    helpers = [str(card) for card in action.get("helpers") or []]
    helped = (f" with helper card{'s' if len(helpers) > 1 else ''} {' and '.join(helpers)}"
              if helpers else "")
    if kind == "load":
        return f"{who} loaded the {item} at {at(action['row'], action['col'])}{turned}{helped}"
    if kind == "store":
        return f"{who} put the {item} in storage{helped}"
    if kind == "load-stored":
        return f"{who} loaded the stored item at {at(action['row'], action['col'])}{turned}{helped}"
    if kind == "drive":
        return f"{who} drove the truck away{helped}"
    return f"{who}: {plain(action)}"


def reveal_label(state: State, action: Action) -> str:
    """``house row 1, col 2: I07 (sofa)``, ``waiting 1: I33``, ``keepsake 1: yarn``
    (rows, columns and slots counted from 1; the item's name where the catalogue has one)."""
    zone = action.get("zone")
    if zone == "keepsakes":
        return f"keepsake {int(action['slot']) + 1}: {action['keepsake']}"
    item = str(action.get("item"))
    catalogue = state.setup.get("catalogue") or {}
    names = {entry["id"]: entry.get("name") for key in ("items", "boxes")
             for entry in catalogue.get(key, [])}
    shown = f"{item} ({names[item]})" if names.get(item) else item
    if zone == "house":
        return f"house row {int(action['row']) + 1}, col {int(action['col']) + 1}: {shown}"
    return f"waiting {int(action['slot']) + 1}: {shown}"


class TruckReader:
    """Each player's truck, read as an observation of its own."""

    def __init__(self, layout: CameraLayout) -> None:
        self.layout = layout

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        from vision.games.removal import read_truck

        layout = self.layout
        found = {mat["id"]: mat for mat in mats}
        return {f"truck:{player}": {"kind": "truck", "player": player,
                                    **read_truck(found.get(mat_id, {"found": False}),
                                                 layout.tags, layout.shapes)}
                for player, mat_id in layout.roles.items()}


def extend(layout: CameraLayout, catalogue: Mapping[str, Any]) -> None:
    """The reader tells a tile's place from its tag and its shape."""
    layout.shapes = {item["id"]: list(item["shape"]) for kind in ("items", "boxes")
                     for item in catalogue.get(kind, [])}


def lay(layout: CameraLayout, state: State, contents: dict[int, Any],
        tags: dict[tuple[str, str], int]) -> None:
    """Each tile's squares and its tag in its player's truck (for the demo's renderer)."""
    from rules.games.removal.referee import tag_square
    from rules.games.removal.truck import oriented_cells

    for player, mat_id in layout.roles.items():
        content = contents[mat_id]
        for placed in state.data["players"][state.players.index(player)]["truck"]:
            shape = layout.shapes[placed["item"]]
            cells = [(placed["row"] + r, placed["col"] + c) for r, c in
                     oriented_cells(tuple(shape), placed["rotation"], placed["flip"])]
            square = tag_square(shape, placed["row"], placed["col"], placed["rotation"],
                                placed["flip"])
            face = "back" if placed["flip"] and (placed["item"], "back") in tags else "front"
            content.tags = [tag for tag in content.tags if (tag[1], tag[2]) not in cells]
            content.place_piece(cells, (tags[(placed["item"], face)], *square,
                                        placed["rotation"]), tags[(placed["item"], "front")])


def mats(catalogues: Mapping[str, Any], per_game: int, sizes: Mapping[str, float]) -> list[Any]:
    """A frame around each truck board of the catalogue."""
    from vision.kit import MatRequest

    return [MatRequest(NAME, f"truck {number}", len(layout), len(layout[0]), "tags",
                       sizes["truck"], frame=True)
            for number, layout in enumerate(catalogues[NAME]["trucks"][:per_game], start=1)]


# -- a copy's own catalogue --------------------------------------------------------------
def questions(document: dict[str, Any], key: str) -> list[Question]:
    """What the camera cannot see of an item (or a moving box)."""
    from rules.catalogue import default_catalogue

    symbols = list(document.get("symbols") or default_catalogue(NAME)["symbols"])
    return [
        Question("name", "name (what is it?)", text_answer),
        Question("heavy", "heavy? (yes/no)", yes_no, False),
        Question("upright", "must stand upright? (yes/no)", yes_no, False),
        Question("antique", "antique? (yes/no)", yes_no, False),
        Question("delicate", "delicate: value undamaged and damaged, e.g. '2 -2' (or none)",
                 delicate_answer, False),
        Question("symbol", f"symbol ({', '.join(symbols)}; or none)",
                 optional(choice_answer(symbols)), False),
        Question("value", f"a moving box? its value 0..{MAX_BOX_VALUE} (or none: an item)",
                 optional(number_answer(0, MAX_BOX_VALUE, True)), False),
    ]


def _removal_piece(node: Node, tags: dict[int, str], ids: set[str], symbols: list[str],
                   trucks: list[list[str]]) -> dict[str, Any]:
    from station.catalogue.pieces import is_one_piece
    from station.inputs.removal import read_tile

    tag = tag_of(node, tags)
    entry: dict[str, Any] = {"id": piece_id(node, tag, "T", ids)}
    if tag is not None:
        entry["tag"] = tag
    spec = read_tile(entry["id"], node)
    shape = list(spec.shape)
    width = max(len(row) for row in shape)
    shape = [row.ljust(width, ".") for row in shape]
    if not is_one_piece(shape):
        raise node["shape"].fail("must be one piece: squares joined through edges, "
                                 "the top row not empty")
    entry["shape"] = shape
    for key in ("name",):
        if not node.get(key).is_null():
            entry[key] = node[key].string(non_empty=True)
    if spec.symbol is not None:
        if symbols and spec.symbol not in symbols:
            raise node["symbol"].fail(f"must be one of {', '.join(symbols)}")
        entry["symbol"] = spec.symbol
    if spec.delicate is not None:
        values = node["delicate"].items()
        entry["delicate"] = [values[0].integer(*DELICATE_GOOD), values[1].integer(*DELICATE_BAD)]
    for flag in ("heavy", "upright", "antique"):
        if getattr(spec, flag):
            entry[flag] = True
    if not node.get("value").is_null():
        entry["value"] = node["value"].integer(0, MAX_BOX_VALUE)
    if not any(_fits_truck(shape, truck, entry.get("upright", False)) for truck in trucks):
        raise node["shape"].fail("fits in no truck of the catalogue, turned any way allowed")
    return entry


def _fits_truck(shape: list[str], truck: list[str], upright: bool) -> bool:
    from station.catalogue.pieces import turned_clockwise

    turns = [shape, [row[::-1] for row in shape]] if upright else [
        turned_clockwise(rows, k) for rows in (shape, [row[::-1] for row in shape])
        for k in range(4)]
    for turn in turns:
        for top in range(len(truck) - len(turn) + 1):
            for left in range(len(truck[0]) - len(turn[0]) + 1):
                if all(char != "#" or truck[top + r][left + c] in ".-"
                       for r, row in enumerate(turn) for c, char in enumerate(row)):
                    return True
    return False


def read_copy(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    """The copy's items and boxes (tags and shapes learnt, the rest asked), each checked to
    fit a truck; the rest of the catalogue from the file or the defaults."""
    catalogue = {key: document[key].value if document.has(key) else value
                 for key, value in defaults.items() if key not in ("notes", "items", "boxes")}
    trucks = [truck.grid(".-#") for truck in document.get("trucks", defaults["trucks"]).items(1)]
    symbols = [s.string(non_empty=True) for s in document.get("symbols", defaults["symbols"])
               .items()]
    tags: dict[int, str] = {}
    ids: set[str] = set()

    def piece(node: Node) -> dict[str, Any]:
        return _removal_piece(node, tags, ids, symbols, trucks)

    def box(node: Node) -> dict[str, Any]:
        node["value"].integer(0, MAX_BOX_VALUE)  # a moving box has a value
        return piece(node)

    found = pieces_of(document, "items", piece)
    boxes = pieces_of(document, "boxes", box, 0) if document.has("boxes") else []
    boxes += [entry for entry in found if "value" in entry]
    catalogue["items"] = [entry for entry in found if "value" not in entry]
    catalogue["boxes"] = boxes or defaults["boxes"]
    return catalogue


RECORD = GameRecord(
    name=NAME, title="Removal", order=30, referee=Referee, scorer=score_document,
    describe=describe, legend=LEGEND,
    presenter=view, reveal_label=reveal_label,
    camera=CameraWiring(roles=partial(one_mat_each, NAME), reader=TruckReader, extend=extend,
                        lay=lay),
    mats=mats, sticker_size="truck", tagged=("items", "boxes"), tag_order=10, tag_backs=True,
    catalogue=CatalogueWiring(lesson=Lesson(NAME, "tags", "item", "items", shaped_piece),
                              read=read_copy, questions=questions))
