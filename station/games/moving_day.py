"""Moving Day in the station: a set of vehicle mats per player, tagged boxes loaded onto them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import Action, State
from rules.games.moving_day.referee import Referee
from station.catalogue.copy import piece_id, pieces_of, tag_of
from station.catalogue.form import Question, number_answer, text_answer, yes_no
from station.catalogue.learn import Lesson, one_square
from station.games.camera import CameraError, CameraLayout
from station.games.record import CameraWiring, CatalogueWiring, GameRecord
from station.games.views import Cell, cell
from station.games.words import actor, at, plain
from station.inputs.moving_day import score_document
from station.jsonin import Node

NAME = "moving-day"
LEGEND = ("Each box shows its weight, and its colour's initial in the corner · ○ fragile box · "
          "✕ damaged box · "
          "dark square: no space in the vehicle")
KIT_PLAYERS = 4  # sets of vehicle mats in the kit, at most


def view(state: State) -> dict[str, Any]:
    """Each vehicle of each player: boxes coloured by colour, weight shown, damage marked."""
    setup = state.setup
    fields = setup["box_fields"]
    boxes = {box: dict(zip(fields, values, strict=True)) for box, values in setup["boxes"].items()}
    damaged: dict[tuple[int, str, int, int], str] = {}
    for index, load in enumerate(state.load_scores()):  # type: ignore[attr-defined]
        for box in load.damaged:
            damaged[index, box.vehicle, box.row, box.col] = box.why
    boards = []
    for index, (player, data) in enumerate(zip(state.players, state.data["players"], strict=True)):
        for vehicle, layout in zip(data["vehicles"], setup["vehicles"], strict=True):
            boards.append({"title": f"{player}: {layout['name']}",
                           "rows": _vehicle_rows(index, layout, vehicle["grid"], boxes, damaged)})
    lines = [f"{player}: {data['snacks']} snacks"
             for player, data in zip(state.players, state.data["players"], strict=True)]
    return {"boards": boards, "lines": lines}


def _vehicle_rows(index: int, layout: dict[str, Any], grid: list[list[Any]],
                  boxes: dict[str, dict[str, Any]], damaged: dict[Any, str]) -> list[list[Cell]]:
    rows = []
    for row, line in enumerate(grid):
        cells: list[Cell] = []
        for col, box_id in enumerate(line):
            if layout["layout"][row][col] == "#":
                cells.append(cell("", "", "wall"))
            elif box_id is None:
                cells.append(None)
            else:
                box = boxes[box_id]
                why = damaged.get((index, layout["name"], row, col))
                cells.append(cell(f"{box['weight']}", str(box["colour"]),
                                  "damaged" if why else "", "fragile" if box["fragile"] else ""))
        rows.append(cells)
    return rows


def describe(state: State, action: Action) -> str:
    """"Ana took group 1: a red books box (weight 6) into the car at row 2, column 1"."""
    who = actor(state)
    if action["type"] != "take":
        return f"{who}: {plain(action)}"
    fields, boxes = state.setup["box_fields"], state.setup["boxes"]
    placed = []
    for box in action.get("boxes", []):
        facts = dict(zip(fields, boxes.get(box["box"], []), strict=False))
        what = f"a {facts.get('colour', '')} {facts.get('type', 'box')} box".replace("  ", " ")
        weight = f" (weight {facts['weight']}{', fragile' if facts.get('fragile') else ''})" \
            if "weight" in facts else ""
        placed.append(f"{what}{weight} into the {box['vehicle']} at {at(box['row'], box['col'])}")
    helper = f"; the helper rides in the {action['helper_vehicle']}" \
        if action.get("helper_vehicle") else ""
    return f"{who} took group {int(action['group']) + 1}: " + (
        "; ".join(placed) or "nothing loaded") + helper


def reveal_label(state: State, action: Action) -> str:
    """``group 3 box: box-07``, ``group 3 helper: helper-13`` (groups counted from 1)."""
    group = f"group {int(action['group']) + 1}"
    if "box" in action:
        return f"{group} box: {action['box']}"
    if "helper" in action and "boxes" not in action:
        return f"{group} helper: {action['helper']}"
    return f"{group}: {', '.join(action.get('boxes', []))} + {action.get('helper')}"


def roles(players: list[str], mats: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """Player *n* on the kit's *n*-th set of vehicle mats (one mat per vehicle)."""
    vehicles = list(dict.fromkeys(mat.request.label.split()[-1] for mat in mats))
    sets = [mats[i:i + len(vehicles)] for i in range(0, len(mats), len(vehicles))]
    if len(players) > len(sets):
        raise CameraError(f"{NAME}: the kit has vehicle mats for {len(sets)} players, "
                          f"not {len(players)}")
    owned = {player: {mat.request.label.split()[-1]: mat.spec.id for mat in sets[index]}
             for index, player in enumerate(players)}
    return owned, [mat.spec for group in sets[:len(players)] for mat in group]


class VehicleReader:
    """Every player's vehicles, read as one observation."""

    def __init__(self, layout: CameraLayout) -> None:
        self.layout = layout

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        from vision.games.moving_day import read_vehicles

        return {"vehicles": {"kind": "vehicles",
                             "players": read_vehicles(mats, self.layout.roles, self.layout.tags)}}


def lay(layout: CameraLayout, state: State, contents: dict[int, Any],
        tags: dict[tuple[str, str], int]) -> None:
    """Each loaded box's tag on its cell of its vehicle's mat (for the demo's renderer)."""
    names = [vehicle["name"] for vehicle in state.setup["vehicles"]]
    for player, owned in layout.roles.items():
        vehicles = state.data["players"][state.players.index(player)]["vehicles"]
        for name, vehicle in zip(names, vehicles, strict=True):
            content = contents[owned[name]]
            for row, line in enumerate(vehicle["grid"]):
                for col, box in enumerate(line):
                    if box is not None:
                        tag = tags[(box, "front")]
                        content.place_piece([(row, col)], (tag, row, col, 90 * (tag % 4)), tag)


def mats(catalogues: Mapping[str, Any], per_game: int, sizes: Mapping[str, float]) -> list[Any]:
    """A tag mat per vehicle, a set of them per player."""
    from vision.kit import MatRequest

    vehicles = catalogues[NAME]["vehicles"]
    requests = []
    for player in range(1, min(KIT_PLAYERS, per_game // max(len(vehicles), 1)) + 1):
        for vehicle in vehicles:
            layout = vehicle["layout"]
            requests.append(MatRequest(NAME, f"player {player} {vehicle['name']}",
                                       len(layout), len(layout[0]), "tags", sizes["cell"]))
    return requests


# -- a copy's own catalogue --------------------------------------------------------------
BOX_QUESTIONS = [
    Question("type", "type (e.g. books)", text_answer),
    Question("colour", "colour (e.g. red)", text_answer),
    Question("fragile", "fragile? (yes/no)", yes_no),
    Question("weight", "weight (1..7)", number_answer(1, 7, True)),
    Question("points", "weight symbols (1..3)", number_answer(1, 3, True)),
]


def questions(document: dict[str, Any], key: str) -> list[Question]:
    """What the camera cannot see of a box."""
    return BOX_QUESTIONS


def read_copy(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    """The copy's boxes (tags learnt, the rest asked); vehicles, helpers and snacks from the
    file or the defaults."""
    tags: dict[int, str] = {}
    ids: set[str] = set()

    def box(node: Node) -> dict[str, Any]:
        tag = tag_of(node, tags)
        entry: dict[str, Any] = {"id": piece_id(node, tag, "box-T", ids)}
        if tag is not None:
            entry["tag"] = tag
        entry.update(type=node["type"].string(non_empty=True),
                     colour=node["colour"].string(non_empty=True),
                     fragile=node["fragile"].boolean(), weight=node["weight"].integer(1, 7),
                     points=node["points"].integer(1, 3))
        return entry

    helper_ids: set[str] = set()

    def helper(node: Node) -> dict[str, Any]:
        return {"id": piece_id(node, None, "", helper_ids), "count": node["count"].integer(1, 3),
                "clumsy": node["clumsy"].boolean(), "strength": node["strength"].integer(1, 4)}

    helpers = document.get("helpers", defaults["helpers"])
    return {"vehicles": document.get("vehicles", defaults["vehicles"]).value,
            "boxes": pieces_of(document, "boxes", box),
            "helpers": [helper(node) for node in helpers.items(min_length=1)],
            "snacks": document.get("snacks", defaults["snacks"]).value}


RECORD = GameRecord(
    name=NAME, title="Moving Day", order=20, referee=Referee, scorer=score_document,
    describe=describe, legend=LEGEND,
    presenter=view, reveal_label=reveal_label,
    camera=CameraWiring(roles=roles, reader=VehicleReader, lay=lay),
    mats=mats, sticker_size="cell", tagged=("boxes",), tag_order=20,
    catalogue=CatalogueWiring(lesson=Lesson(NAME, "tags", "box", "boxes", one_square("box")),
                              read=read_copy, questions=questions))
