"""Request bodies of the API (responses are plain JSON documents)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Name = Annotated[str, Field(min_length=1, max_length=200)]
Identifier = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")]
Seed = Annotated[int, Field(ge=0, le=2**63 - 1)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameStart(Strict):
    """Start a game at a table."""

    game: Name
    players: Annotated[list[Name], Field(min_length=1, max_length=12)]
    seed: Seed | None = None
    options: dict[str, Any] | None = None
    deal: Literal["seed", "table"] = "seed"


class TableCreate(Strict):
    """A new table, optionally with its first game."""

    name: Name
    id: Identifier | None = None
    game: GameStart | None = None


class ObservationIn(Strict):
    """A stable observation from a reader (or a declared action: ``{"kind": "declared", ...}``)."""

    observation: dict[str, Any]
    source: Annotated[str, Field(min_length=1, max_length=100)] = "api"


class RevealIn(Strict):
    """A chance outcome a person saw at the table: one of the table's legal outcomes."""

    action: dict[str, Any]
    source: Annotated[str, Field(min_length=1, max_length=100)] = "person"


class CorrectionIn(Strict):
    """A referee's action, resolving a flag or not."""

    action: dict[str, Any]
    flag: Annotated[int, Field(ge=1)] | None = None


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
    game: Name
    seed: Seed | None = None
    options: dict[str, Any] | None = None


class ResultIn(Strict):
    scores: dict[str, Annotated[int, Field(ge=-10_000, le=10_000)]]
    winners: list[str] | None = None
