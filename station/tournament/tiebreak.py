"""Who wins a game whose result is entered by hand: the highest total, then the game's own
tie-break as its rulebook gives it, then a shared victory (docs/rules-notes.md).

A live game needs none of this: its engine's ``winners()`` already applies the rulebook.
By hand, the station only knows the totals, so for a tie it asks for the one figure the
rulebook breaks ties on (``"tie_break": {player: value}``, docs/formats.md §10).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from station.games import game_record


class TieBreakRefusal(ValueError):
    """A hand result whose tie-break is missing, not needed, or names someone else."""


@dataclass(frozen=True)
class TieBreak:
    """A game's tie-break within one game: ``key`` names the figure, ``words`` say it as
    the form asks for it, ``better``: ``"higher"`` or ``"lower"`` wins the tie."""

    key: str
    words: str
    better: str

    def to_json(self) -> dict[str, str]:
        return {"key": self.key, "words": self.words, "better": self.better}

    def rank(self, value: int) -> int:
        """A sort key: larger is better."""
        return value if self.better == "higher" else -value


#: Each game's rulebook tie-break (Pick n Packers has none: "In case of a tie, share the win").
TIE_BREAKS: dict[str, TieBreak] = {
    "moving-day": TieBreak("snack_points", "snack points", "higher"),
    "small-warehouse": TieBreak("empty_boxes", "empty boxes", "lower"),
    "removal": TieBreak("antiques", "Antique tiles", "lower"),
}


def tie_break_of(game: str | None) -> TieBreak | None:
    """The tie-break of ``game`` (None: a tie is shared, or the tournament names no game)."""
    return TIE_BREAKS.get(game) if game else None


def hand_winners(game: str | None, players: Sequence[str], scores: Mapping[str, int],
                 tie_break: Mapping[str, int] | None) -> list[str]:
    """The winners of a hand-entered result, in seat order: the highest totals; among
    several, the best ``tie_break`` figure when the game has one (required then, for each
    tied player); still level, they share the victory."""
    rule = tie_break_of(game)
    _check_tie_break(game, rule, players, tie_break)
    best = max(scores.values())
    tied = [player for player in players if scores[player] == best]
    if len(tied) == 1 or rule is None:
        return tied
    missing = [player for player in tied if player not in (tie_break or {})]
    if missing:
        raise TieBreakRefusal(
            f"$.tie_break: {_listed(tied)} are tied on {best}: give the {rule.words} of "
            f"{_listed(missing)} ({_title(game)} breaks a tie on them: {rule.better} wins)")
    assert tie_break is not None
    top = max(rule.rank(tie_break[player]) for player in tied)
    return [player for player in tied if rule.rank(tie_break[player]) == top]


def _check_tie_break(game: str | None, rule: TieBreak | None, players: Sequence[str],
                     tie_break: Mapping[str, int] | None) -> None:
    if not tie_break:
        return
    if rule is None:
        why = f"{_title(game)} has no tie-break: a tie shares the win" if game else (
            "the tournament names no game, so no rulebook breaks a tie: a tie is shared")
        raise TieBreakRefusal(f"$.tie_break: {why}")
    strangers = [name for name in tie_break if name not in players]
    if strangers:
        raise TieBreakRefusal(f"$.tie_break.{strangers[0]}: not a player of this game")


def _title(game: str | None) -> str:
    record = game_record(game) if game else None
    return record.title if record is not None else str(game)


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def describe(game: str | None) -> dict[str, Any] | None:
    """What the result form asks for a tie in ``game`` (None: nothing, a tie is shared)."""
    rule = tie_break_of(game)
    return None if rule is None else rule.to_json()
