"""Request bodies and path parameters of the API (responses: :mod:`station.api.responses`).

Every integer that reaches the database is bounded by what its column holds, and every id
by the shape the station gives ids, so no input can make the database fail.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool

from station.api.limits import bounded_document
from station.store.models import ID_LENGTH, INTEGER_MAX, NAME_LENGTH

ID_PATTERN = rf"^[a-z0-9][a-z0-9-]{{0,{ID_LENGTH - 1}}}$"
NO_NUL = r"^[^\x00]*$"  # PostgreSQL's text holds no NUL character
Name = Annotated[str, Field(min_length=1, max_length=NAME_LENGTH, pattern=NO_NUL)]
Identifier = Annotated[str, Field(pattern=ID_PATTERN)]
Seed = Annotated[int, Field(ge=0, le=2**63 - 1)]
RowNumber = Annotated[int, Field(ge=1, le=INTEGER_MAX)]

TableId = Annotated[str, Path(pattern=ID_PATTERN, description="a table's id")]
TournamentId = Annotated[str, Path(pattern=ID_PATTERN, description="a tournament's id")]
GameId = Annotated[int, Path(ge=1, le=INTEGER_MAX, description="a tournament game's id")]
FlagSeq = Annotated[int, Path(ge=1, le=INTEGER_MAX, description="the flag's event number")]
EntrySeq = Annotated[int, Path(ge=1, le=INTEGER_MAX, description="the entry's event number")]
PlayerName = Annotated[str, Path(min_length=1, max_length=NAME_LENGTH, pattern=NO_NUL)]
#: A JSON object sent to be stored (an observation, an action, options): bounded in depth and
#: size (:mod:`station.api.limits`), so every answer that carries it back can be encoded.
Document = Annotated[dict[str, Any], AfterValidator(bounded_document)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameStart(Strict):
    """Start a game at a table."""

    game: Name
    players: Annotated[list[Name], Field(min_length=1, max_length=12)]
    seed: Seed | None = None
    options: Document | None = None
    deal: Literal["seed", "table"] = "seed"
    #: A copy's catalogue (``packref catalogue learn``/``edit``'s file), checked as
    #: ``packref catalogue check`` does; default: the station's for the game, if any.
    catalogue: dict[str, Any] | None = None


class TableCreate(Strict):
    """A new table, optionally with its first game."""

    name: Name
    id: Identifier | None = None
    game: GameStart | None = None


class ObservationIn(Strict):
    """A stable observation from a reader (or a declared action: ``{"kind": "declared", ...}``)."""

    observation: Document
    source: Annotated[str, Field(min_length=1, max_length=100)] = "api"


class RevealIn(Strict):
    """A chance outcome a person saw at the table: one of the table's legal outcomes."""

    action: Document
    source: Annotated[str, Field(min_length=1, max_length=100)] = "person"


class CorrectionIn(Strict):
    """A referee's action, resolving a flag or not."""

    action: Document
    flag: RowNumber | None = None
    #: Take back the last step first, in the same write (a wrong step put right at once).
    replace: bool = False


class ChoiceIn(Strict):
    """Which reading of a flag that asked is the true one (from 0, in the flag's order)."""

    reading: Annotated[int, Field(ge=0, le=100)]


class TournamentCreate(Strict):
    name: Name
    id: Identifier | None = None
    tie_breakers: list[str] | None = None
    players: list[Name] = []


class TieBreakersIn(Strict):
    tie_breakers: list[str]


class PlayerIn(Strict):
    name: Name


class MatchCreate(Strict):
    round: Annotated[int, Field(ge=1, le=1000)]
    players: Annotated[list[Name], Field(min_length=1, max_length=12)]
    table: Identifier | None = None


class MatchStart(Strict):
    """Start a tournament game at its table, or at ``table`` (one named for a game that
    waits); ``game`` defaults to the tournament's; dealt by hand unless ``deal`` is "seed";
    a table with a game in play only with ``replace``."""

    game: Name | None = None
    seed: Seed | None = None
    options: Document | None = None
    deal: Literal["seed", "table"] = "table"
    table: Identifier | None = None
    replace: bool = False


Points = Annotated[int, Field(ge=-10_000, le=10_000)]


class ResultIn(Strict):
    """A result by hand; ``tie_break``: for a tie on top, each tied player's figure the
    game's rulebook breaks ties on (Moving Day: snack points; docs/formats.md §10)."""

    scores: dict[str, Points]
    winners: list[str] | None = None
    tie_break: dict[str, Points] | None = None


class HintsIn(Strict):
    """The organiser's hints switch: at a table (the acting player's best moves on its page)
    or for a tournament (allowed at the tables of its games)."""

    on: StrictBool
