"""Server-rendered pages: index, a table's live view and projector view, tournaments.

Each page is complete HTML at once (a page opened mid-game shows the current
state before any script runs); a little JavaScript then keeps it live over
the WebSocket.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from station.api.deps import OrganiserReadDep, ServicesDep, SessionDep, StationDep, TokenDep
from station.api.models import GameId, TournamentId
from station.games import board_moves, describe_action, game_records, pictured_outcomes
from station.live.advisor import public_message
from station.live.public import public_legal_actions
from station.live.station import Station
from station.tournament import results, service

LEGAL_CHOICES = 300  # the most legal actions offered in the correction picker

#: Each tie-breaker as a person reads it (station/tournament/standings.py says how each counts).
TIE_BREAKER_WORDS = {
    "wins": "most wins",
    "points": "most points",
    "average": "best average score",
    "head_to_head": "head-to-head between the tied players",
    "opponents": "opponents' wins (Buchholz)",
    "opponents_strength": "strength of the opponents met",
    "fewest_games": "fewest games played",
}

TEMPLATES = Jinja2Templates(directory=Path(__file__).resolve().parent.parent / "web" / "templates")
router = APIRouter(include_in_schema=False)


def _render(request: Request, name: str, **context: Any) -> HTMLResponse:
    return TEMPLATES.TemplateResponse(request, name, {"games": game_words(), **context})


def game_words() -> dict[str, dict[str, str]]:
    """Each game's name as people write it and its boards' legend, by engine name."""
    return {record.name: {"title": record.title, "legend": record.legend}
            for record in game_records()}


@router.get("/", response_class=HTMLResponse)
def index(request: Request, station: StationDep, session: SessionDep) -> HTMLResponse:
    tables = [station.snapshot(table_id) for table_id in station.table_ids()]
    return _render(request, "index.html", tables=tables,
                   tournaments=service.list_tournaments(session))


def _advice(services: ServicesDep, table_id: str) -> dict[str, Any] | None:
    """The latest win chances (and hints, when shown) for a table page opened now."""
    services.advisor.ensure(table_id)
    return public_message(services.advisor.message(table_id))


@router.get("/table-cards", response_class=HTMLResponse)
def table_cards(request: Request, station: StationDep) -> HTMLResponse:
    """The front page's table list alone (index.js fetches it again as tables move)."""
    tables = [station.snapshot(table_id) for table_id in station.table_ids()]
    return _render(request, "_table_cards.html", tables=tables)


def live_tiles(services: ServicesDep, tables: set[str] | None = None) -> list[dict[str, Any]]:
    """Every table with a game in play (of ``tables`` only, when given), as the room sees
    it: the public snapshot (the one the projector shows) and its win chances when they
    are credible enough to be shown."""
    tiles = []
    for table_id in services.station.table_ids():
        if tables is not None and table_id not in tables:
            continue
        snapshot = services.station.snapshot(table_id)
        if snapshot["game"] is None or snapshot["game"]["over"]:
            continue
        tiles.append({"snapshot": snapshot, "advice": _advice(services, table_id)})
    return tiles


@router.get("/room", response_class=HTMLResponse)
def room(request: Request, services: ServicesDep) -> HTMLResponse:
    """The room's screen: every live table as a tile, one featured in turn (room.js)."""
    return _render(request, "room.html", tiles=live_tiles(services))


@router.get("/room/tiles", response_class=HTMLResponse)
def room_tiles(request: Request, services: ServicesDep, tables: str = "") -> HTMLResponse:
    """The room's tiles alone (room.js fetches them again as tables move); ``tables``: the
    tables' ids, comma-separated, to show only those (a tournament round's)."""
    chosen = {table for table in tables.split(",") if table} if tables else None
    return _render(request, "_room_tiles.html", tiles=live_tiles(services, chosen))


@router.get("/tables/{table_id}", response_class=HTMLResponse)
def table_page(request: Request, table_id: str, services: ServicesDep) -> HTMLResponse:
    snapshot = services.station.snapshot(table_id)
    return _render(request, "table.html", snapshot=snapshot,
                   advice=_advice(services, table_id))


def matching(words: str, query: str) -> bool:
    """Whether every word of ``query`` is in ``words`` (any case): how the picker narrows.

    >>> matching("Ben loaded the piano at row 2, column 3", "piano row 2")
    True
    >>> matching("Ben loaded the piano at row 2, column 3", "sofa")
    False
    """
    said = words.casefold()
    return all(word in said for word in query.casefold().replace(",", " ").split())


@router.get("/tables/{table_id}/legal-choices", response_class=HTMLResponse)
def legal_choices(request: Request, table_id: str, station: StationDep,
                  organiser: OrganiserReadDep, q: str = "") -> HTMLResponse:
    """The referee's correction picker: the legal actions now, each in words (options);
    ``q`` keeps those whose words hold each of its words, so any legal action can be found
    however many there are (the list shows at most ``LEGAL_CHOICES`` at once). Without
    the organiser's token, as the table sees them (:func:`public_legal_actions`)."""
    live = station.table(table_id)
    state = None if live.current is None else live.current.state
    actions = [] if state is None or state.is_over() else (
        state.legal_actions() if organiser else public_legal_actions(state))
    # moves to choose from, not made yet: a speculation names its card (as the hints do)
    said = [(describe_action(state, action, face_up=organiser), action) for action in actions]
    found = [choice for choice in said if matching(choice[0], q)]
    return _render(request, "_legal_choices.html", choices=found[:LEGAL_CHOICES],
                   total=len(actions), matched=len(found), query=q.strip())


@router.get("/tables/{table_id}/board-entry")
def board_entry(table_id: str, station: StationDep, _organiser: TokenDep) -> dict[str, Any]:
    """The table page's move entry by the board (tap_move.js): every legal action now as
    its taps — piece, place, turn, then — with each choice's words and picture
    (:func:`station.games.tapping.board_entry`). The organiser's only: a hand's cards are
    among the pieces, and entering a move needs the token anyway."""
    live = station.table(table_id)
    state = None if live.current is None else live.current.state
    if state is None or state.is_over() or state.is_chance():
        return {"seq": live.last_seq, "player": "", "steps": [], "choices": {}, "moves": [],
                "untapped": 0}
    return {"seq": live.last_seq, **board_moves(state, state.legal_actions())}


@router.get("/tables/{table_id}/reveal-choices")
def reveal_choices(table_id: str, station: StationDep, _organiser: TokenDep) -> dict[str, Any]:
    """The reveal picker's pictures: the table's legal chance outcomes now, each with its
    component drawn and said by the catalogue (:func:`station.games.pictured_outcomes`);
    the organiser's only, as the outcomes are (what is not on it tells a hand)."""
    live = station.table(table_id)
    state = None if live.current is None else live.current.state
    outcomes = [] if state is None or state.is_over() else state.chance_outcomes()
    return {"seq": live.last_seq, "outcomes": [] if state is None else
            pictured_outcomes(state, outcomes)}


@router.get("/tables/{table_id}/projector", response_class=HTMLResponse)
def table_projector(request: Request, table_id: str, services: ServicesDep) -> HTMLResponse:
    snapshot = services.station.snapshot(table_id)
    return _render(request, "projector.html", snapshot=snapshot,
                   advice=_advice(services, table_id))


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
def tournament_page(request: Request, tournament_id: str, session: SessionDep,
                    services: ServicesDep) -> HTMLResponse:
    return _tournament(request, session, services, tournament_id, projector=False)


def _tournament(request: Request, session: SessionDep, services: ServicesDep,
                tournament_id: str, projector: bool) -> HTMLResponse:
    """A tournament's page or its projector view; tables by their names, tie-breakers in
    words (tournament.js keeps both live)."""
    detail = service.tournament_detail(session, services.station, tournament_id)
    tables = round_tables(detail)
    return _render(request, "tournament.html", tournament=detail, projector=projector,
                   table_names=table_names(services.station),
                   tie_breaker_words=TIE_BREAKER_WORDS, round_tables=sorted(tables),
                   tiles=live_tiles(services, tables) if projector else [])


def round_tables(detail: dict[str, Any]) -> set[str]:
    """The tables the tournament's last round plays at (its projector's room slide)."""
    rounds = detail.get("rounds") or []
    return {game["table"] for game in rounds[-1]["games"] if game.get("table")} if rounds \
        else set()


def table_names(station: Station) -> dict[str, str]:
    """Every table's name by its id: pages say "Table 1", not its id ``table-1``."""
    return {info.id: info.name for info in station.store.tables()}


@router.get("/tournaments/{tournament_id}/projector", response_class=HTMLResponse)
def tournament_projector(request: Request, tournament_id: str, session: SessionDep,
                         services: ServicesDep) -> HTMLResponse:
    return _tournament(request, session, services, tournament_id, projector=True)


@router.get("/tournaments/{tournament_id}/games/{match_id}/sign", response_class=HTMLResponse)
def sign_page(request: Request, tournament_id: TournamentId, match_id: GameId,
              session: SessionDep, services: ServicesDep, player: str = "",
              code: str = "") -> HTMLResponse:
    """A player's phone page: the game's final scores and Agree / Disagree, signed with the
    player's own code (in the organiser's link, or typed). The page checks nothing itself:
    the confirm route answers the buttons, so a wrong code is told there, once."""
    game = results.game_to_sign(session, services.station, tournament_id, match_id)
    return _render(request, "sign.html", game=game, code=code,
                   player=player if player in game["players"] else None)
