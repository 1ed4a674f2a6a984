"""What the API answers: response models of every route and the one error shape.

The models describe the JSON the routes already build (they validate it on the way out and
give ``/openapi.json`` its types). Where a part is each game's own JSON (a state, an action,
a drawing view) the envelope is typed and the inner part stays an object; objects accept
more keys than they name, so a new key is not a break.

>>> documented(Snapshot, 404)["responses"][404]["model"].__name__
'ErrorOut'
"""

from __future__ import annotations

from typing import Any

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field

Json = dict[str, Any]


class Open(BaseModel):
    """A JSON object with these keys at least."""

    model_config = ConfigDict(extra="allow")


# -- errors ---------------------------------------------------------------------------------
class Problem(BaseModel):
    """One part of a request that does not fit: where (a JSON path) and why."""

    place: str = Field(examples=["$.players[0]"])
    message: str = Field(examples=["Input should be a valid string"])


class ErrorOut(BaseModel):
    """Every refusal: a sentence, and for a request that does not fit, each place."""

    detail: str = Field(examples=["there is no table 'nope'"])
    errors: list[Problem] = Field(default_factory=list)


ERROR_MEANINGS = {
    400: "Refused: the request cannot be carried out as asked (the sentence says why)",
    401: "Writes need the organiser's token: 'Authorization: Bearer TOKEN'",
    403: "Refused: the code is not this player's for this game (a player signs with their "
         "own code; the organiser's token is not a signature)",
    404: "No such table, tournament, game or catalogue",
    409: "Conflict with the table's state or with another writer (nothing to undo, "
         "the id is taken...)",
    422: "The request does not fit: each place is named (or the engine refused the action)",
}


def documented(model: Any, *codes: int) -> dict[str, Any]:
    """Route keyword arguments: ``model`` as the answer (keys the route does not send are not
    added) and the error shape for each status code in ``codes``."""
    return {"response_model": model, "response_model_exclude_unset": True,
            "responses": {code: {"model": ErrorOut, "description": ERROR_MEANINGS[code]}
                          for code in sorted(codes)}}


def errors_beside(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error shape for ``codes`` on a route whose own answer is not JSON (refusals
    still are)."""
    shape = {"$ref": "#/components/schemas/ErrorOut"}
    return {code: {"description": ERROR_MEANINGS[code],
                   "content": {"application/json": {"schema": shape}}} for code in sorted(codes)}


def with_project_error_shape(description: dict[str, Any]) -> dict[str, Any]:
    """``description`` with FastAPI's default 422 body (``HTTPValidationError``, where
    ``detail`` is a list) replaced by :class:`ErrorOut`, which is what the station sends,
    on any route that did not declare its 422 itself.

    >>> fastapis = {"schema": {"$ref": "#/components/schemas/HTTPValidationError"}}
    >>> described = {"paths": {"/x": {"get": {"responses": {"422": {"content": {
    ...     "application/json": fastapis}}}}}},
    ...     "components": {"schemas": {"HTTPValidationError": {}, "ValidationError": {}}}}
    >>> shaped = with_project_error_shape(described)
    >>> shaped["paths"]["/x"]["get"]["responses"]["422"]["content"]["application/json"]
    {'schema': {'$ref': '#/components/schemas/ErrorOut'}}
    >>> sorted(shaped["components"]["schemas"])
    ['ErrorOut', 'Problem']
    """
    default = "#/components/schemas/HTTPValidationError"
    for operations in description.get("paths", {}).values():
        for operation in operations.values():
            answer = operation.get("responses", {}).get("422") if isinstance(operation, dict) \
                else None
            for content in (answer or {}).get("content", {}).values():
                if content.get("schema") == {"$ref": default}:
                    content["schema"] = {"$ref": "#/components/schemas/ErrorOut"}
                    answer["description"] = ERROR_MEANINGS[422]
    schemas = description.setdefault("components", {}).setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    for name, schema in ErrorOut.model_json_schema(
            ref_template="#/components/schemas/{model}").get("$defs", {}).items():
        schemas.setdefault(name, schema)
    schemas.setdefault("ErrorOut", {key: value for key, value in ErrorOut.model_json_schema(
        ref_template="#/components/schemas/{model}").items() if key != "$defs"})
    return description


class CsvResponse(Response):
    """A CSV file (documented as ``text/csv``)."""

    media_type = "text/csv"


# -- tables ---------------------------------------------------------------------------------
class GameInfo(Open):
    name: str
    min_players: int
    max_players: int
    options: Json


class TableGameLine(Open):
    name: str
    players: list[str]
    over: bool
    seq: int


class TableLine(Open):
    """A table in the list: its current game in brief and how many flags are open."""

    id: str
    name: str
    seq: int
    game: TableGameLine | None
    flags: int


class TableInfo(Open):
    id: str
    name: str
    created_at: str


class PlayerScore(Open):
    player: str
    total: int | float
    parts: Json


class ChanceSummary(Open):
    waiting: bool
    outcomes: int
    unseen: int


class GameSummary(Open):
    """The table's current (or a past) game: setup, position, drawing view, scores."""

    seq: int
    name: str
    players: list[str]
    seed: int | None = None
    options: Json = Field(default_factory=dict)
    over: bool
    current_player: Any = None
    actions: int | None = None
    deal: str | None = None
    chance: ChanceSummary | None = None
    state: Any = None
    view: Any = None
    scores: list[PlayerScore] = Field(default_factory=list)
    winners: list[str] = Field(default_factory=list)


class Flag(Open):
    """An open flag: the action the engine refused and its reason."""

    seq: int
    at: str
    action: Any = None
    reason: str = ""
    reading: str | None = Field(None, description="the kind of camera reading that raised "
                                "it: it closes when such a reading shows the table back")
    of: str | None = Field(None, description="the player whose board that reading showed")
    readings: list[Json] | None = Field(None, description="when the camera saw something two "
                                        "ways: each reading's words and actions, to pick from "
                                        "(POST .../flags/SEQ/choose)")


class Entry(Open):
    """A person's entry waiting for the action it is for."""

    seq: int
    entry: Json
    text: str


class Snapshot(Open):
    """Everything a live page shows of a table."""

    table: TableInfo
    seq: int
    hints: bool = Field(False, description="the organiser's hints switch at this table")
    game: GameSummary | None
    flags: list[Flag]
    entries: list[Entry] = Field(default_factory=list,
                                 description="a person's entries waiting for their action")
    recent: list[Json]
    readings: list[Json]
    last_observation: Json | None
    past_games: list[Json]
    problems: list[Any]


class TableHints(Open):
    """A table's hints switch, and whether hints show (a tournament may not allow them)."""

    table: str
    on: bool
    shown: bool
    refusal: str | None = Field(None, description="why hints do not show although on")


class WinChance(Open):
    player: str
    chance: float


class Hint(Open):
    """One of the acting player's best moves: in words, as data, and what it promises."""

    words: str
    action: Json
    win_chance: float | None = None
    expected_score: float | None = None


class AdviceOut(Open):
    """The latest advice on a table's position (docs/advisor.md, "At the table"); the same
    object the live channel sends as ``{"type": "advice", ...}``."""

    type: str = "advice"
    table: str
    game: int | None = None
    actions: int | None = None
    position: int | None = None
    player: str | None = None
    win_chances: list[WinChance] | None = None
    hints: list[Hint] | None = None
    hints_on: bool = False
    playouts: int = 0
    seconds: float = 0.0


class TournamentHints(Open):
    tournament: str
    allow_hints: bool


class EventOut(Open):
    """A stored event: its number, kind, author and time, and its own fields."""

    seq: int
    kind: str
    author: str
    at: str


class EventsOut(Open):
    """The events a write stored."""

    events: list[EventOut]


class LegalActions(Open):
    actions: list[Json]
    total: int


class Outcome(Open):
    """A reveal the table may enter: the action and how many such components are unseen."""

    action: Json
    count: int
    label: str | None = None


class Outcomes(Open):
    waiting: bool
    unseen: int
    total: int
    outcomes: list[Outcome]


# -- tournaments ----------------------------------------------------------------------------
class TournamentLine(Open):
    id: str
    name: str
    tie_breakers: list[str]
    created_at: str


class Settled(Open):
    """Who settled a game's dispute, and when."""

    by: str
    at: str


class ResultOutcome(Open):
    """A result's scores and winners (and tie-break figures, when a tie needed them)."""

    scores: dict[str, int | float]
    winners: list[str]
    tie_break: dict[str, int] | None = None


class Correction(Open):
    """A result replaced by another: when, by whom, and what it was and became."""

    at: str
    author: str
    old: ResultOutcome
    new: ResultOutcome


class Result(Open):
    """A game's result: by hand, live (``final`` once over) or a bye. ``confirmations``: each
    player's word on these scores; ``disputed``: a player disagreed and the organiser has
    not settled it yet (a later "agree" does not undo it). ``tie_break``: the figures a tie
    was broken on; ``corrections``: each earlier result this one replaced, oldest first."""

    scores: dict[str, int | float]
    winners: list[str]
    source: str
    author: str | None = None
    final: bool | None = None
    confirmations: dict[str, bool] | None = None
    disputed: bool | None = None
    settled: Settled | None = None
    tie_break: dict[str, int] | None = None
    corrections: list[Correction] | None = None


class TournamentGame(Open):
    """A game of a round: who plays, at which table, and its result once known."""

    id: int
    round: int
    players: list[str]
    table: str | None
    game_seq: int | None = None
    result: Result | None = None


class GameAtTable(TournamentGame):
    tournament: str


class PlayerCode(Open):
    """A player's code for one game: it signs that player's result of that game, nothing
    else."""

    player: str
    code: str = Field(examples=["K7QD-M2XA"])
    sign: str = Field(description="the player's phone page, with the code",
                      examples=["/tournaments/cup/games/3/sign?player=Ana#code=K7QD-M2XA"])


class SigningStep(Open):
    """One step of a game's signing: a player's ``agree`` or ``disagree`` (``who``: the
    player whose code signed it, ``host``: where it came from, ``scores``: what was signed) or
    the organiser's ``settle`` (``who``: the organiser, ``note``, ``scores``: the corrected
    result, if any)."""

    kind: str = Field(examples=["disagree"])
    who: str
    at: str
    host: str | None = None
    note: str = ""
    scores: dict[str, int | float] | None = None


class GameSigning(Open):
    """For the organiser: a game's codes and its signing record, oldest first."""

    tournament: str
    game: int
    round: int
    table: str | None
    codes: list[PlayerCode]
    disputed: bool
    signing: list[SigningStep]


class StartedGame(Open):
    """A tournament game started at a table: its first event, its seed (null when dealt
    by hand), how it was dealt and which game."""

    id: int
    table: str | None
    game_seq: int | None
    seed: int | None
    deal: str = "table"
    game: str | None = None


class Round(Open):
    round: int
    games: list[TournamentGame]
    byes: list[str]


class StandingLine(Open):
    rank: int
    player: str
    played: int
    wins: int
    points: int | float
    average: float
    opponents: int
    opponents_strength: float


class Dispute(Open):
    game: int
    round: int
    table: str | None
    disagree: list[str]


class TieBreakRule(Open):
    """What a hand result asks for a tie on top: the figure the game's rulebook breaks
    ties on (``key``, e.g. ``snack_points``; ``words``: as the form says it) and which
    wins (``better``: ``higher`` or ``lower``)."""

    key: str
    words: str
    better: str


class TournamentDetail(Open):
    """Players, rounds with games and results, standings and the organiser's rules."""

    id: str
    name: str
    tie_breakers: list[str]
    players: list[str]
    rounds: list[Round]
    standings: list[StandingLine]
    disputes: list[Dispute]
    dropped: dict[str, int]
    locks: dict[str, str]
    forbidden: list[list[str]]
    allow_hints: bool = False
    game: str | None = None
    tie_break: TieBreakRule | None = None


class PlayersOut(Open):
    players: list[str]


class PairedGame(Open):
    id: int
    players: list[str]
    table: str | None


class PairedRound(Open):
    round: int
    games: list[PairedGame]
    byes: list[str]


class DroppedOut(Open):
    player: str
    dropped_after_round: int


class LocksOut(Open):
    locks: dict[str, str]


class ForbiddenOut(Open):
    forbidden: list[list[str]]


# -- catalogues -----------------------------------------------------------------------------
class CataloguePiece(Open):
    """One piece of the copy: its values, the questions about it, those still open."""

    list: str
    index: int
    entry: Any
    title: str
    questions: list[Json]
    open: list[str]


class CatalogueWalk(Open):
    """The walk through a copy: every piece, how many values are open, whether it plays."""

    game: str
    pieces: list[CataloguePiece]
    open: int
    playable: bool
    reason: str | None = None
