"""``packref kit --out DIR [--cell-mm 20] [--paper a4|letter]``: the printable kit for every game.

Writes true-scale PDFs (and PNG previews) of the mats each game needs and the
tag stickers of every piece in the catalogues; see ``docs/kit.md``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from station.errors import InputError
from station.output import emit

ORDER = 45


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "kit", help="write the printable kit (mats, frames, tag stickers) as PDF and PNG",
        description="Write print-ready, true-scale PDFs (and PNG previews) of the mats of "
        "every game and of the tag stickers of every catalogue piece. Prints a JSON list of "
        "the mats and files written.")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    parser.add_argument("--cell-mm", type=float, default=20.0,
                        help="cell side of the mats, in mm (default 20)")
    parser.add_argument("--truck-cell-mm", type=float, default=None,
                        help="cell side of your Removal truck boards (default: --cell-mm)")
    parser.add_argument("--shop-cell-mm", type=float, default=70.0,
                        help="cell side of the Pick 'n Packers shop grid (default 70)")
    parser.add_argument("--table", type=int, default=0, help="this table's number (from 0)")
    parser.add_argument("--tables", type=int, default=1,
                        help="how many tables share the room (their kits get distinct mat "
                        "numbers; default 1)")
    parser.add_argument("--catalogue", action="append", default=[], metavar="FILE",
                        help="your copy's catalogue (its \"game\" says which): the stickers "
                        "are then exactly its pieces', each labelled with the piece's name; "
                        "repeatable")
    parser.add_argument("--dpmm", type=float, default=10.0,
                        help="print resolution in dots per mm (default 10, about 254 dpi)")
    parser.add_argument("--paper", default=None, metavar="a4|letter",
                        help="print on this paper at home: mats larger than a page are "
                        "tiled with a 10 mm overlap and every page has a 100 mm scale bar "
                        "(default: one true-size page per mat, A4 sticker sheets)")
    parser.set_defaults(run=run)


def _check(arguments: argparse.Namespace) -> None:
    for name in ("cell_mm", "shop_cell_mm", "dpmm"):
        value = getattr(arguments, name)
        if not 2 <= value <= 200:
            raise InputError(f"--{name.replace('_', '-')}: must be 2..200")
    if arguments.paper is not None and arguments.paper not in ("a4", "letter"):
        raise InputError(f"--paper {arguments.paper}: use a4 or letter")
    if arguments.truck_cell_mm is not None and not 2 <= arguments.truck_cell_mm <= 200:
        raise InputError("--truck-cell-mm: must be 2..200")


def stickers(tags: dict[int, dict[str, str]], cell_mm: float, truck_cell_mm: float,
             shop_cell_mm: float, names: dict[tuple[str, str], str] | None = None) -> list:
    """One sticker per tag, sized for the cells its piece lies on; ``names`` maps
    (game, piece id) to the name printed on it (default: the id)."""
    from station.games import game_record
    from vision.kit import Sticker

    names = names or {}
    kit_sizes = {"cell": cell_mm, "truck": truck_cell_mm, "shop": shop_cell_mm}
    sizes = {game: kit_sizes[record.sticker_size] for game in {p["game"] for p in tags.values()}
             if (record := game_record(game)) is not None}
    labels = {tag_id: names.get((piece["game"], piece["piece"]), piece["piece"])
              for tag_id, piece in tags.items()}
    return [Sticker(tag_id, f"{labels[tag_id]} {piece['face']}"
                    if piece["face"] == "back" else f"{piece['game']} {labels[tag_id]}",
                    sizes[piece["game"]]) for tag_id, piece in sorted(tags.items())]


def copies(files: list[str]) -> dict[str, dict[str, Any]]:
    """The copies' catalogues of ``--catalogue FILE``, by the game each file names."""
    from station.copies import load_copy
    from station.jsonin import load_json_file
    from station.kit import catalogued_games

    found: dict[str, dict[str, Any]] = {}
    for path in files:
        game = load_json_file(path).get("game")
        name = game.choice(catalogued_games())
        if name in found:
            raise InputError(f"--catalogue: two catalogues of {name}")
        found[name] = load_copy(name, path)
    return found


def piece_names(catalogues: dict[str, dict[str, Any]]) -> dict[tuple[str, str], str]:
    """(game, piece id) → the name a copy gives a tagged piece (Removal items), where it has
    one."""
    from station.games import game_record

    return {(game, str(entry["id"])): str(entry.get("name") or entry.get("label")
                                          or entry["id"])
            for game, catalogue in catalogues.items()
            if (record := game_record(game)) is not None
            for key in record.tagged for entry in catalogue.get(key, [])}


def run(arguments: argparse.Namespace) -> int:
    from station.kit import default_catalogues, mat_requests
    from station.tags import assign_tags
    from vision.errors import KitError
    from vision.kit import plan_mats, table_numbers
    from vision.kit_print import write_kit

    _check(arguments)
    truck_cell = arguments.truck_cell_mm or arguments.cell_mm
    catalogues = default_catalogues()
    own = copies(arguments.catalogue)
    catalogues.update(own)
    try:
        numbers = table_numbers(arguments.table, arguments.tables)
        requests = mat_requests(catalogues, len(numbers), {
            "cell": arguments.cell_mm, "truck": truck_cell, "shop": arguments.shop_cell_mm})
        mats = plan_mats(requests, numbers)
        tags = assign_tags(catalogues)
        if own:  # exactly the copies' pieces
            tags = {tag: piece for tag, piece in tags.items() if piece["game"] in own}
        sheets = stickers(tags, arguments.cell_mm, truck_cell, arguments.shop_cell_mm,
                          piece_names(own))
        files = write_kit(Path(arguments.out), mats, sheets, arguments.dpmm,
                          arguments.paper)
    except KitError as error:
        raise InputError(f"kit: {error}") from None
    except OSError as error:
        raise InputError(f"{arguments.out}: cannot write ({error.strerror})") from None
    emit({"mats": [{"game": m.request.game, "label": m.request.label, "id": m.spec.id,
                    "rows": m.spec.rows, "cols": m.spec.cols, "kind": m.spec.kind}
                   for m in mats],
          "tags": len(sheets), "files": [str(path) for path in files]})
    return 0
