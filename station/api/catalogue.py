"""The catalogue page and its API: walk through a copy's pieces and fill what the camera
cannot see (``DATA/catalogues/GAME.json``, which ``serve`` plays with at its next start).

- ``GET  /api/catalogues/{game}``: every piece, its questions, the open values, and
  whether the engine can play the copy (``reason`` when not);
- ``PUT  /api/catalogues/{game}``: store a learnt file (``packref catalogue learn --out``);
- ``POST /api/catalogues/{game}/answers``: ``{"list", "index", "field", "answer"}`` — one
  answer, checked with the scoring commands' one-line errors (400 ``{"detail"}``);
- ``POST /api/catalogues/{game}/presents/{index}/weigh``: ``{"table"}`` — the present's
  mass from the load cell of the drone at that table (its latest reading, with only the
  present on it), or ``{"mass_g"}`` read by hand from a kitchen scale.
- ``GET  /catalogue/{game}``: the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Request, status
from fastapi import Path as PathParameter
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from rules import get_game
from station.api.deps import OrganiserReadDep, ServicesDep, StationDep, TokenDep
from station.api.responses import CatalogueWalk, documented
from station.copies import CopyFolder, answer, learnt_key, walk_view
from station.errors import InputError
from station.jsonin import Node

TEMPLATES = Jinja2Templates(directory=Path(__file__).resolve().parent.parent / "web" / "templates")
router = APIRouter(tags=["catalogues"])
JsonBody = Annotated[dict[str, Any], Body()]
GameName = Annotated[str, PathParameter(min_length=1, max_length=64, description="a game's name")]
PieceIndex = Annotated[int, PathParameter(ge=0, le=10_000, description="the present's place")]
WRITE = (400, 401, 404, 422)


def _folder(services: ServicesDep) -> CopyFolder:
    return CopyFolder(services.settings.data_dir / "catalogues")


def _document(folder: CopyFolder, game: str) -> dict[str, Any]:
    document = folder.load(game)
    if document is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND,
                            f"no catalogue of {game} yet: learn one with 'packref catalogue "
                            "learn' and upload it")
    document.setdefault("game", game)
    return document


def _as_the_table_sees(game: str, walk: dict[str, Any]) -> dict[str, Any]:
    """The walk with every secret property of the game's components hidden (a Removal box's
    value: the copy's catalogue says which box is worth what)."""
    secret = {prop for props in get_game(game).secret_properties.values() for prop in props}
    for piece in walk.get("pieces", []):
        entry = piece.get("entry")
        if isinstance(entry, dict):
            piece["entry"] = {key: None if key in secret else value
                              for key, value in entry.items()}
    return walk


@router.get("/api/catalogues/{game}", **documented(CatalogueWalk, 400, 401, 404, 422))
def read_catalogue(game: GameName, services: ServicesDep,
                   organiser: OrganiserReadDep) -> dict[str, Any]:
    """The walk through the copy of ``game``; without the organiser's token, the values
    the table may not see (a box's back side) are hidden."""
    walk = walk_view(game, _document(_folder(services), game))
    return walk if organiser else _as_the_table_sees(game, walk)


@router.put("/api/catalogues/{game}", **documented(CatalogueWalk, *WRITE))
def store_catalogue(game: GameName, services: ServicesDep, _author: TokenDep,
                    document: JsonBody) -> dict[str, Any]:
    """Store a learnt file as the station's copy of ``game``."""
    folder = _folder(services)
    folder.path(game)
    named = Node(document).get("game", game)
    if named.value != game:
        raise named.fail(f"this is a catalogue of {named.value!r}, not of {game!r}")
    Node(document)[learnt_key(game)].items(min_length=1)
    folder.save(game, {**document, "game": game})
    return walk_view(game, _document(folder, game))


@router.post("/api/catalogues/{game}/answers", **documented(CatalogueWalk, *WRITE))
def answer_question(game: GameName, services: ServicesDep, _author: TokenDep,
                    body: JsonBody) -> dict[str, Any]:
    """Check and store one answer; the walk as it now stands."""
    folder = _folder(services)
    document = _document(folder, game)
    request = Node(body)
    key = request["list"].choice([k for k in ("cards", "items", "boxes", "shop_cards",
                                              "presents") if k in document])
    index = request["index"].integer(0, len(document[key]) - 1)
    answer(document, key, index, request["field"].string(non_empty=True),
           str(request["answer"].value if not request["answer"].is_null() else ""))
    folder.save(game, document)
    return walk_view(game, document)


@router.post("/api/catalogues/{game}/presents/{index}/weigh",
             **documented(CatalogueWalk, *WRITE))
def weigh_present(game: GameName, index: PieceIndex, services: ServicesDep, station: StationDep,
                  _author: TokenDep, body: JsonBody) -> dict[str, Any]:
    """The present's mass from a table's drone (``{"table"}``) or typed (``{"mass_g"}``)."""
    request = Node(body)
    if request.has("table"):
        table = station.table(request["table"].string(non_empty=True))
        masses = [reading["observation"]["mass_g"] for reading in table.readings
                  if isinstance(reading.get("observation", {}).get("mass_g"), int | float)]
        if not masses:
            raise InputError(f"$.table: no load-cell reading from the drone at table "
                             f"{request['table'].value!r} yet: put the present on the drone")
        mass = float(masses[-1])
    else:
        mass = request["mass_g"].number()
    return answer_question(game, services, _author,
                           {"list": "presents", "index": index, "field": "mass_g",
                            "answer": f"{mass:g}"})


@router.get("/catalogue/{game}", response_class=HTMLResponse, include_in_schema=False)
def catalogue_page(request: Request, game: str, services: ServicesDep) -> HTMLResponse:
    document = _folder(services).load(game)
    view = None if document is None else _as_the_table_sees(
        game, walk_view(game, {**document, "game": game}))  # a page is read without a token
    return TEMPLATES.TemplateResponse(request, "catalogue.html", {"game": game, "view": view})
