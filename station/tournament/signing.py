"""A game's signing record: each player's agree or disagree (signed with their code) and the
organiser's settlements, in the order they came (``MatchSigningRow``, only ever added to).

Whether a game is disputed is read from that record, never stored beside the result: a
result replaced later (a correction at the table, a result entered by hand) or a later
"agree" cannot make a dispute disappear; only the organiser's settlement ends it.

>>> from datetime import UTC, datetime
>>> from station.store.models import MatchRow, MatchSigningRow
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> game = MatchRow(players=["Ana", "Ben"], result={"scores": {}, "winners": []})
>>> game.signing = [MatchSigningRow(kind=DISAGREE, who="Ben", at=at),
...                 MatchSigningRow(kind=AGREE, who="Ben", at=at)]
>>> disagreeing(game)
['Ben']
>>> game.signing.append(MatchSigningRow(kind=SETTLE, who="organiser", at=at))
>>> disagreeing(game), state(game)["disputed"]
([], False)
"""

from __future__ import annotations

from typing import Any

from station.store.events import aware
from station.store.models import MatchRow, MatchSigningRow

AGREE, DISAGREE, SETTLE = "agree", "disagree", "settle"


def disagreeing(match: MatchRow) -> list[str]:
    """The players who disagreed since the organiser last settled the game (none: no
    dispute). A result disputed before the record existed shows its own ``disputed`` flag
    until the record begins (:func:`station.tournament.results.confirm_result` carries it
    in)."""
    legacy = (match.result or {}).get("disputed") is True and not match.signing
    said = [p for p, ok in (match.result or {}).get("confirmations", {}).items()
            if not ok] if legacy else []
    for step in match.signing:
        if step.kind == SETTLE:
            said = []
        elif step.kind == DISAGREE and step.who not in said:
            said.append(step.who)
    return sorted(said)


def last_settlement(match: MatchRow) -> MatchSigningRow | None:
    return next((step for step in reversed(match.signing) if step.kind == SETTLE), None)


def state(match: MatchRow) -> dict[str, Any]:
    """What a stored result shows of its signing: ``disputed``, and once the organiser has
    settled it (and no one disagreed since), who settled and when (the note is the
    organiser's, in :func:`record`)."""
    disputed = bool(disagreeing(match))
    settled = last_settlement(match)
    if disputed or settled is None:
        return {"disputed": disputed}
    return {"disputed": False, "settled": {"by": settled.who, "at": aware(settled.at).isoformat()}}


def step_json(step: MatchSigningRow) -> dict[str, Any]:
    return {"kind": step.kind, "who": step.who, "at": aware(step.at).isoformat(),
            "host": step.host, "note": step.note or "", "scores": step.scores}


def record(match: MatchRow) -> list[dict[str, Any]]:
    """The whole record, oldest first: for the organiser."""
    return [step_json(step) for step in match.signing]
