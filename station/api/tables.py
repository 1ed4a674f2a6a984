"""``/api/tables``: tables, their games, observations and referee decisions."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Query, status
from fastapi.exceptions import RequestValidationError

from rules import game_names, get_game
from station.api.deps import OrganiserReadDep, ServicesDep, StationDep, TokenDep
from station.api.limits import check_options
from station.api.models import (
    ChoiceIn,
    CorrectionIn,
    EntrySeq,
    FlagSeq,
    GameStart,
    HintsIn,
    ObservationIn,
    RevealIn,
    TableCreate,
    TableId,
)
from station.api.once import OnceDep
from station.api.responses import (
    AdviceOut,
    EventOut,
    EventsOut,
    GameInfo,
    LegalActions,
    Outcomes,
    Snapshot,
    TableHints,
    TableLine,
    documented,
)
from station.copies import checked_copy
from station.games import labelled_outcomes
from station.jsonin import Node
from station.live.advisor import public_message
from station.live.public import public_legal_actions
from station.live.table import TableRefusal, chance_summary
from station.store import Event
from station.store.models import INTEGER_MAX

router = APIRouter(prefix="/api", tags=["tables"])
READ = (404, 422)  # an unknown table; a malformed id or query
WRITE = (400, 401, 404, 409, 422)  # and: refused, no token, the table's state forbids it


def _summary(station: StationDep, table_id: str) -> dict[str, Any]:
    snapshot = station.snapshot(table_id)
    game = snapshot["game"]
    return {"id": table_id, "name": snapshot["table"]["name"], "seq": snapshot["seq"],
            "game": None if game is None else {
                "name": game["name"], "players": game["players"], "over": game["over"],
                "seq": game["seq"]},
            "flags": len(snapshot["flags"])}


@router.get("/games", **documented(list[GameInfo]))
def list_games() -> list[dict[str, Any]]:
    """The games this station can referee."""
    games = [get_game(name) for name in game_names()]
    return [{"name": game.name, "min_players": game.min_players,
             "max_players": game.max_players, "options": game.default_options}
            for game in games]


@router.get("/tables", **documented(list[TableLine]))
def list_tables(station: StationDep) -> list[dict[str, Any]]:
    return [_summary(station, table_id) for table_id in station.table_ids()]


@router.post("/tables", status_code=status.HTTP_201_CREATED, **documented(Snapshot, *WRITE))
def create_table(body: TableCreate, station: StationDep, author: TokenDep) -> dict[str, Any]:
    """Add a table, and start its first game if one is given."""
    catalogue = None
    if body.game is not None:  # check the game before anything is written
        start = body.game
        _no_seed_for_a_hand_deal(start, ("body", "game", "seed"))
        check_options(start.game, start.options, ("body", "game", "options"))
        engine = get_game(start.game)
        catalogue = _copy(start, "$.game.catalogue")
        engine.new_game(start.players, seed=start.seed or 0, options=start.options,
                        deal=start.deal, catalogue=catalogue)
    live = station.create_table(body.name, body.id)
    if body.game is not None:
        _start(station, live.info.id, body.game, author, catalogue)
    return station.snapshot(live.info.id)


def _copy(body: GameStart, path: str) -> dict[str, Any] | None:
    """The copy's catalogue sent with the game (checked; 400 with the reason), or None."""
    if body.catalogue is None:
        return None
    get_game(body.game)  # an unknown game is a 404 before its catalogue is read
    return checked_copy(body.game, Node(body.catalogue, path), len(body.players))


#: The sources of observations that no person sends: their refusals are flags at the table.
DEVICE_SOURCES = ("camera", "drone", "demo")


def _no_seed_for_a_hand_deal(body: GameStart, place: tuple[str, ...]) -> None:
    """A game dealt by hand has no seed: one sent is a mistake, named (as the CLI does)."""
    if body.deal == "table" and body.seed is not None:
        raise RequestValidationError([{
            "loc": place, "type": "value_error", "input": body.seed,
            "msg": 'a game dealt by hand ("deal": "table") has no seed'}])


def _start(station: StationDep, table_id: str, body: GameStart, author: str,
           catalogue: dict[str, Any] | None = None) -> None:
    seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
    if body.deal == "table":
        seed = 0  # dealt by hand: no seed decides anything (none is stored)
    station.start_game(table_id, body.game, body.players, seed, body.options, author, body.deal,
                       catalogue)


@router.get("/tables/{table_id}", **documented(Snapshot, *READ))
def read_table(table_id: TableId, station: StationDep) -> dict[str, Any]:
    """The table's live snapshot: game, state, scores, open flags, recent events."""
    return station.snapshot(table_id)


@router.get("/tables/{table_id}/events", **documented(list[EventOut], *READ, 401))
def read_events(table_id: TableId, station: StationDep, organiser: OrganiserReadDep,
                after: int = Query(0, ge=0, le=INTEGER_MAX),
                limit: int = Query(500, ge=1, le=5000)) -> list[dict[str, Any]]:
    """The table's stored events after ``after``, in order: the whole record with the
    organiser's token, else each action as the table sees it (a card laid face down shows
    no face)."""
    if not organiser:
        return station.public_events(table_id, after, limit)
    station.table(table_id)
    return [event.to_json() for event in station.store.events(table_id, after, limit)]


@router.get("/tables/{table_id}/legal-actions", **documented(LegalActions, *READ))
def legal_actions(table_id: TableId, station: StationDep, organiser: OrganiserReadDep,
                  limit: int = Query(200, ge=1, le=5000)) -> dict[str, Any]:
    """Actions the engine allows now (for a referee's correction): all of them with the
    organiser's token, else as the table sees them (one face-down speculation, not which
    cards a speculator still holds)."""
    live = station.table(table_id)
    if live.current is None or live.current.state.is_over():
        return {"actions": [], "total": 0}
    state = live.current.state
    actions = state.legal_actions() if organiser else public_legal_actions(state)
    return {"actions": actions[:limit], "total": len(actions)}


@router.get("/tables/{table_id}/outcomes", **documented(Outcomes, *READ))
def chance_outcomes(table_id: TableId, station: StationDep, organiser: OrganiserReadDep,
                    limit: int = Query(500, ge=1, le=5000)) -> dict[str, Any]:
    """The reveals the table may enter now (docs/contracts.md §9's picker), each with how many
    such components are unseen (and, where the game's record has them, the words the picker
    shows); ``waiting`` when play cannot go on before one is made. The list needs the
    organiser's token: what is *not* on it tells which cards are in a hand (the public gets
    the counts only)."""
    live = station.refresh(table_id)
    if live.current is None:
        return {"waiting": False, "outcomes": [], "total": 0, "unseen": 0}
    state = live.current.state
    summary = chance_summary(state)
    outcomes = [] if state.is_over() else state.chance_outcomes()
    if not organiser:
        return {"waiting": summary["waiting"], "unseen": summary["unseen"],
                "total": len(outcomes), "outcomes": []}
    return {"waiting": summary["waiting"], "unseen": summary["unseen"], "total": len(outcomes),
            "outcomes": labelled_outcomes(state, outcomes[:limit])}


@router.post("/tables/{table_id}/reveals", status_code=status.HTTP_201_CREATED,
             **documented(EventsOut, *WRITE))
def post_reveal(table_id: TableId, body: RevealIn, station: StationDep, author: TokenDep,
                once: OnceDep) -> Any:
    """A chance outcome a person entered: applied if it is a legal outcome, else flagged at
    the table and answered 422 with the engine's reason (nothing else changes)."""
    return once.write(body, status.HTTP_201_CREATED, lambda: _answer(
        station.reveal(table_id, body.action, author, body.source)))


def _answer(events: list[Event]) -> dict[str, Any]:
    return {"events": [event.to_json() for event in events]}


@router.post("/tables/{table_id}/games", status_code=status.HTTP_201_CREATED,
             **documented(Snapshot, *WRITE))
def start_game(table_id: TableId, body: GameStart, station: StationDep,
               author: TokenDep) -> dict[str, Any]:
    """Start a new game at the table (the previous one stays in the record)."""
    _no_seed_for_a_hand_deal(body, ("body", "seed"))
    check_options(body.game, body.options, ("body", "options"))
    _start(station, table_id, body, author, _copy(body, "$.catalogue"))
    return station.snapshot(table_id)


@router.post("/tables/{table_id}/observations", status_code=status.HTTP_201_CREATED,
             **documented(EventsOut, *WRITE))
def post_observation(table_id: TableId, body: ObservationIn, station: StationDep,
                     author: TokenDep, once: OnceDep) -> Any:
    """Feed a stable observation through the table's translator and engine. A person's
    declared action or reveal the engine refuses is answered 422 with its reason (nothing
    stored, nothing flagged); a device's (``source`` camera, drone or demo) is flagged at
    the table, as its readings are."""
    answer = body.source not in DEVICE_SOURCES
    return once.write(body, status.HTTP_201_CREATED, lambda: _answer(
        station.observe(table_id, body.observation, body.source, author, answer=answer)))


@router.post("/tables/{table_id}/corrections", status_code=status.HTTP_201_CREATED,
             **documented(EventsOut, *WRITE))
def post_correction(table_id: TableId, body: CorrectionIn, station: StationDep,
                    author: TokenDep, once: OnceDep) -> Any:
    """A referee's action: applied if the engine allows it (422 with its reason if not);
    ``replace``: the last step is taken back first, in the same write."""
    return once.write(body, status.HTTP_201_CREATED, lambda: _answer(
        station.correct(table_id, body.action, author, body.flag, body.replace)))


@router.post("/tables/{table_id}/flags/{flag}/choose", status_code=status.HTTP_201_CREATED,
             **documented(EventsOut, *WRITE))
def choose_reading(table_id: TableId, flag: FlagSeq, body: ChoiceIn, station: StationDep,
                   author: TokenDep) -> dict[str, Any]:
    """The camera saw something two ways (the flag's ``readings``): apply the one a person
    picks, as one step; the flag closes."""
    events = station.choose(table_id, flag, body.reading, author)
    return {"events": [event.to_json() for event in events]}


@router.post("/tables/{table_id}/entries/{entry}/withdraw", status_code=status.HTTP_201_CREATED,
             **documented(EventsOut, *WRITE))
def withdraw_entry(table_id: TableId, entry: EntrySeq, station: StationDep,
                   author: TokenDep) -> dict[str, Any]:
    """Withdraw a person's entry still waiting (the snapshot's ``entries``); 409 if none
    waits at that event."""
    events = station.withdraw(table_id, entry, author)
    return {"events": [event.to_json() for event in events]}


@router.post("/tables/{table_id}/flags/{flag}/accept", status_code=status.HTTP_201_CREATED,
             **documented(EventsOut, *WRITE))
def accept_flag(table_id: TableId, flag: FlagSeq, station: StationDep,
                author: TokenDep) -> dict[str, Any]:
    """The referee accepts the engine's refusal: the flag closes, nothing is applied."""
    events = station.accept(table_id, flag, author)
    return {"events": [event.to_json() for event in events]}


@router.post("/tables/{table_id}/undo", status_code=status.HTTP_201_CREATED,
             **documented(EventsOut, *WRITE))
def undo(table_id: TableId, station: StationDep, author: TokenDep) -> dict[str, Any]:
    """Take back the last step of the current game: every action one reading or request
    applied, reveals included (a new event, not an edit)."""
    events = station.undo(table_id, author)
    return {"events": [event.to_json() for event in events]}


def _hints(services: ServicesDep, table_id: str) -> dict[str, Any]:
    with services.station.table_lock(table_id):
        live = services.station.table(table_id)
        refusal = services.advisor.hints_refusal(live)
        answer = {"table": table_id, "on": live.hints, "shown": live.hints and refusal is None}
        return answer | ({"refusal": refusal} if refusal is not None else {})


@router.get("/tables/{table_id}/hints", **documented(TableHints, *READ))
def read_table_hints(table_id: TableId, services: ServicesDep) -> dict[str, Any]:
    """The table's hints switch, and whether hints show now."""
    return _hints(services, table_id)


@router.put("/tables/{table_id}/hints", **documented(TableHints, *WRITE))
def put_table_hints(table_id: TableId, body: HintsIn, services: ServicesDep,
              author: TokenDep) -> dict[str, Any]:
    """Switch the acting player's best moves on or off at the table's page (off by default;
    refused, 409, at a tournament game unless its organiser allows hints)."""
    if body.on:
        refusal = services.advisor.hints_refusal(services.station.table(table_id))
        if refusal is not None:
            raise TableRefusal(refusal)
    services.station.set_hints(table_id, body.on, author)
    return _hints(services, table_id)


@router.get("/tables/{table_id}/advice", **documented(AdviceOut, *READ))
def read_advice(table_id: TableId, services: ServicesDep) -> dict[str, Any]:
    """The latest win chances (and hints, when on) for the table's position; asks for them
    if nobody has yet (they then arrive on the live channel)."""
    services.station.table(table_id)
    services.advisor.ensure(table_id)
    message = public_message(services.advisor.message(table_id))
    return message or {"type": "advice", "table": table_id, "hints_on": False}
