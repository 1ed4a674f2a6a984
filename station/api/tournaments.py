"""``/api/tournaments``: players, rounds and their games, results, standings, CSV."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Request, Response, status
from pydantic import Field

from station.api.deps import Services, ServicesDep, SessionDep, TokenDep
from station.api.limits import check_options
from station.api.models import (
    NO_NUL,
    GameId,
    HintsIn,
    Identifier,
    MatchCreate,
    MatchStart,
    Name,
    PlayerIn,
    PlayerName,
    ResultIn,
    Strict,
    TableId,
    TieBreakersIn,
    TournamentCreate,
    TournamentId,
)
from station.api.once import OnceDep
from station.api.responses import (
    CsvResponse,
    DroppedOut,
    ForbiddenOut,
    GameAtTable,
    GameSigning,
    LocksOut,
    PairedRound,
    PlayersOut,
    StandingLine,
    StartedGame,
    TournamentDetail,
    TournamentGame,
    TournamentHints,
    TournamentLine,
    documented,
    errors_beside,
)
from station.store.notify import announce
from station.tournament import hints, results, rounds, service


class TournamentIn(TournamentCreate):
    """A new tournament; ``game`` chooses its tie-breakers when none are given."""

    game: Name | None = None


class RoundIn(Strict):
    """Pair the next round of ``game`` (default: the tournament's): tables of ``size``
    (default: the most it allows) at ``tables`` (default: every table with no game in play;
    one in play only with ``replace``), each game dealt by hand unless ``deal`` is "seed"."""

    game: Name | None = None
    size: Annotated[int, Field(ge=2, le=12)] | None = None
    force: bool = False
    tables: Annotated[list[Identifier], Field(max_length=200)] | None = None
    deal: Literal["seed", "table"] = "table"
    replace: bool = False


Code = Annotated[str, Field(min_length=1, max_length=32, pattern=NO_NUL, examples=["K7QD-M2XA"],
                             description="the player's own code for this game (any case; "
                             "spaces and dashes are ignored)")]


class ConfirmIn(Strict):
    """A player agrees (or not) with a game's final scores, signing with their own code for
    that game (the organiser shows it to them); the organiser's token is no signature."""

    player: Name
    agree: bool
    code: Code


class SettleIn(Strict):
    """The organiser settles a disputed game: why (``note``) and, to correct it, the result
    as ``PUT .../result`` takes it; without ``result`` the result stands as it is."""

    note: Annotated[str, Field(min_length=1, max_length=1000, pattern=NO_NUL)]
    result: ResultIn | None = None


class LockIn(Strict):
    """Keep a player at one table (``table`` null lifts the lock)."""

    player: Name
    table: Name | None


class ForbidIn(Strict):
    """Never seat these players at one table."""

    players: Annotated[list[Name], Field(min_length=2, max_length=12)]


router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
READ = (404, 422)  # an unknown tournament (or game); a malformed id
WRITE = (400, 401, 404, 409, 422)  # and: refused, no token, a table's state forbids it


def _changed(services: ServicesDep, tournament_id: str) -> None:
    """Tell this station's tournament pages, and the other stations of a hub."""
    services.hub.publish(f"tournament:{tournament_id}", json.dumps({"type": "changed"}))
    announce(services.database, {"kind": "tournament", "id": tournament_id})


def watch_results(services: Services) -> results.ResultsRecorder:
    """Record finished live games in their tournament games, and tell the pages."""
    recorder = results.ResultsRecorder(services.database,
                                       lambda tournament_id: _changed(services, tournament_id))
    services.hub.watch("table:", recorder)
    return recorder


@router.get("/at-table/{table_id}", **documented(GameAtTable, *READ))
def game_at_table(table_id: TableId, session: SessionDep, services: ServicesDep) -> dict[str, Any]:
    """The tournament game of the table's current game (404 if it is not one); with no game
    in play, of its last game (one ended by a result entered by hand: its players still
    confirm that result at the table)."""
    snapshot = services.station.snapshot(table_id)
    game = snapshot["game"] or (snapshot["past_games"] or [None])[-1]
    return results.game_at_table(session, table_id, game["seq"] if game else None)


@router.get("", **documented(list[TournamentLine]))
def list_tournaments(session: SessionDep) -> list[dict[str, Any]]:
    return service.list_tournaments(session)


@router.post("", status_code=status.HTTP_201_CREATED, **documented(TournamentDetail, *WRITE))
def create_tournament(body: TournamentIn, session: SessionDep, services: ServicesDep,
                      author: TokenDep) -> dict[str, Any]:
    created = service.create_tournament(session, services.clock, body.name, body.id,
                                        body.tie_breakers, body.players, body.game)
    session.commit()
    return service.tournament_detail(session, services.station, created["id"])


@router.get("/{tournament_id}", **documented(TournamentDetail, *READ))
def read_tournament(tournament_id: TournamentId, session: SessionDep,
                    services: ServicesDep) -> dict[str, Any]:
    """Players, rounds with games and results (live or by hand), standings."""
    return service.tournament_detail(session, services.station, tournament_id)


@router.put("/{tournament_id}/tie-breakers", **documented(TournamentDetail, *WRITE))
def put_tie_breakers(tournament_id: TournamentId, body: TieBreakersIn, session: SessionDep,
                     services: ServicesDep, author: TokenDep) -> dict[str, Any]:
    service.set_tie_breakers(session, tournament_id, body.tie_breakers)
    session.commit()
    _changed(services, tournament_id)
    return service.tournament_detail(session, services.station, tournament_id)


@router.put("/{tournament_id}/hints", **documented(TournamentHints, *WRITE))
def put_tournament_hints(tournament_id: TournamentId, body: HintsIn, session: SessionDep,
              services: ServicesDep, author: TokenDep) -> dict[str, Any]:
    """Allow (``on``) or forbid the advisor's hints at the tables of the tournament's games
    (forbidden by default); a table switched on shows them once allowed."""
    answer = hints.allow_hints(session, services.clock, tournament_id, body.on)
    session.commit()
    _changed(services, tournament_id)
    for table_id in services.station.table_ids():  # hints may show (or stop) at once
        with services.station.table_lock(table_id):
            services.advisor.position_changed(services.station.table(table_id))
    return answer


@router.post("/{tournament_id}/players", status_code=status.HTTP_201_CREATED,
             **documented(PlayersOut, *WRITE))
def add_player(tournament_id: TournamentId, body: PlayerIn, session: SessionDep,
               services: ServicesDep,
               author: TokenDep) -> dict[str, Any]:
    players = service.add_player(session, tournament_id, body.name)
    session.commit()
    _changed(services, tournament_id)
    return {"players": players}


@router.post("/{tournament_id}/games", status_code=status.HTTP_201_CREATED,
             **documented(TournamentGame, *WRITE))
def add_match(tournament_id: TournamentId, body: MatchCreate, session: SessionDep,
              services: ServicesDep, author: TokenDep) -> dict[str, Any]:
    """Add a game to a round (with a table to play it live, or without to enter by hand)."""
    match = service.add_match(session, tournament_id, body.round, body.players, body.table)
    session.commit()
    _changed(services, tournament_id)
    return match


@router.post("/{tournament_id}/games/{match_id}/start", status_code=status.HTTP_201_CREATED,
             **documented(StartedGame, *WRITE))
def start_match(tournament_id: TournamentId, match_id: GameId, body: MatchStart,
                session: SessionDep,
                services: ServicesDep, author: TokenDep) -> dict[str, Any]:
    """Start the game at its table (or ``table``, for a game waiting for one), dealt by
    hand unless ``deal`` is "seed"; the result then comes from the live game. 409 when the
    table has a game in play and ``replace`` is not said."""
    if body.game is not None:  # else the tournament's game: its engine bounds the options
        check_options(body.game, body.options, ("body", "options"))
    started = service.start_match(session, services.station, tournament_id, match_id,
                                  body.game, author, body.seed, body.options, body.deal,
                                  body.table, body.replace)
    session.commit()
    _changed(services, tournament_id)
    return started


@router.put("/{tournament_id}/games/{match_id}/result", **documented(TournamentGame, *WRITE))
def put_result(tournament_id: TournamentId, match_id: GameId, body: ResultIn, session: SessionDep,
               services: ServicesDep, author: TokenDep, once: OnceDep) -> Any:
    """Enter a game's result by hand: winners by the totals, then the game's tie-break
    (``tie_break``), then shared. A game still in play at its table is ended there; a result
    replacing another is kept in ``corrections`` (old, new, who, when)."""
    earlier = once.earlier(body)
    if earlier is not None:
        return earlier
    match = service.record_result(session, services.clock, services.station, tournament_id,
                                  match_id, body.scores, body.winners, author, body.tie_break)
    once.keep(session, body, status.HTTP_200_OK, match)
    session.commit()
    _changed(services, tournament_id)
    return match


@router.get("/{tournament_id}/standings", **documented(list[StandingLine], *READ))
def read_standings(tournament_id: TournamentId, session: SessionDep,
                   services: ServicesDep) -> list[dict[str, Any]]:
    return service.tournament_detail(session, services.station, tournament_id)["standings"]


@router.get("/{tournament_id}/standings.csv", response_class=CsvResponse,
            responses=errors_beside(*READ))
def standings_csv(tournament_id: TournamentId, session: SessionDep,
                  services: ServicesDep) -> Response:
    text = service.tournament_csv(session, services.station, tournament_id)
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="{tournament_id}-standings.csv"'})


@router.post("/{tournament_id}/rounds", status_code=status.HTTP_201_CREATED,
             **documented(PairedRound, *WRITE))
def pair_round(tournament_id: TournamentId, body: RoundIn, session: SessionDep,
               services: ServicesDep,
               author: TokenDep) -> dict[str, Any]:
    """Pair and start the next round at real tables (docs/formats.md §10); refused while
    results are missing unless ``force``; 409 when a named table has a game in play and
    ``replace`` is not said."""
    paired = rounds.pair_next_round(session, services.station, tournament_id, body.game,
                                    body.size, author, body.force, body.tables, body.deal,
                                    body.replace)
    session.commit()
    _changed(services, tournament_id)
    return paired


@router.post("/{tournament_id}/players/{name}/drop", **documented(DroppedOut, *WRITE))
def drop_player(tournament_id: TournamentId, name: PlayerName, session: SessionDep,
                services: ServicesDep,
                author: TokenDep) -> dict[str, Any]:
    """Take a player out of later rounds (their past results stay)."""
    answer = rounds.drop_player(session, tournament_id, name)
    session.commit()
    _changed(services, tournament_id)
    return answer


@router.post("/{tournament_id}/locks", **documented(LocksOut, *WRITE))
def lock_player(tournament_id: TournamentId, body: LockIn, session: SessionDep,
                services: ServicesDep,
                author: TokenDep) -> dict[str, Any]:
    answer = rounds.lock_player(session, tournament_id, body.player, body.table)
    session.commit()
    _changed(services, tournament_id)
    return answer


@router.post("/{tournament_id}/forbidden", status_code=status.HTTP_201_CREATED,
             **documented(ForbiddenOut, *WRITE))
def forbid_players(tournament_id: TournamentId, body: ForbidIn, session: SessionDep,
                   services: ServicesDep, author: TokenDep) -> dict[str, Any]:
    answer = rounds.forbid_players(session, tournament_id, body.players)
    session.commit()
    _changed(services, tournament_id)
    return answer


@router.post("/{tournament_id}/games/{match_id}/confirm",
             **documented(TournamentGame, 400, 403, 404, 422))
def confirm_result(tournament_id: TournamentId, match_id: GameId, body: ConfirmIn,
                   request: Request, session: SessionDep,
                   services: ServicesDep) -> dict[str, Any]:
    """A player confirms the final scores with their own code (``agree``: false flags the
    game until the organiser settles it). No token: a phone in the room signs for its player
    only; a wrong code is refused 403. Who signed, when and from where is recorded."""
    host = request.client.host if request.client else None
    match = results.confirm_result(session, services.clock, tournament_id, match_id,
                                   body.player, body.code, body.agree, host)
    session.commit()
    _changed(services, tournament_id)
    return match


@router.post("/{tournament_id}/games/{match_id}/settle", **documented(TournamentGame, *WRITE))
def settle_dispute(tournament_id: TournamentId, match_id: GameId, body: SettleIn,
                   session: SessionDep, services: ServicesDep,
                   author: TokenDep) -> dict[str, Any]:
    """The organiser settles a disputed game (409 if it is not disputed): the result stands,
    or ``result`` replaces it; who settled, when and the note are recorded."""
    fixed = body.result
    match = results.settle_dispute(session, services.clock, tournament_id, match_id, author,
                                   body.note, fixed.scores if fixed else None,
                                   fixed.winners if fixed else None,
                                   fixed.tie_break if fixed else None)
    session.commit()
    _changed(services, tournament_id)
    return match


@router.get("/{tournament_id}/games/{match_id}/codes",
            **documented(GameSigning, 400, 401, 404, 422))
def read_codes(tournament_id: TournamentId, match_id: GameId, session: SessionDep,
               author: TokenDep) -> dict[str, Any]:
    """For the organiser: each player's code for the game and the page that signs with it,
    and who signed or settled what, when and from where."""
    view = results.signing_view(session, tournament_id, match_id)
    session.commit()  # a game paired before codes existed has just been given its codes
    for line in view["codes"]:
        # the code after '#': a browser never sends it, so no access log on the Pi holds it
        query, code = urlencode({"player": line["player"]}), urlencode({"code": line["code"]})
        line["sign"] = f"/tournaments/{tournament_id}/games/{match_id}/sign?{query}#{code}"
    return view


@router.get("/{tournament_id}/export.json", response_model=None, responses={
    200: {"model": TournamentDetail, "description": "The tournament, as a file"},
    **documented(None, *READ)["responses"]})
def export_json(tournament_id: TournamentId, session: SessionDep,
                services: ServicesDep) -> Response:
    """The whole tournament (players, rounds, results, standings, rules) as a JSON file."""
    detail = service.tournament_detail(session, services.station, tournament_id)
    return Response(json.dumps(detail, indent=2, ensure_ascii=False),
                    media_type="application/json", headers={
                        "Content-Disposition": f'attachment; filename="{tournament_id}.json"'})
