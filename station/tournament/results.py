"""Results from the table: a live game started for a tournament game gives its result by
itself when it ends; each player confirms the final scores with their own code (the table
page, or their phone), and a disagreement flags the game until the organiser settles it.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from station.live.station import Station
from station.store.clock import Clock
from station.store.database import Database
from station.store.models import MatchRow, MatchSigningRow
from station.tournament import service, signing
from station.tournament.codes import check_code, codes_of
from station.tournament.service import TournamentConflict, TournamentRefusal

log = logging.getLogger("packref.tournament")


def live_result(game: dict[str, Any]) -> dict[str, Any]:
    """A finished live game (its summary) as a tournament result."""
    return {"scores": {line["player"]: line["total"] for line in game["scores"]},
            "winners": list(game["winners"]), "source": "live", "final": True,
            "confirmations": {}}


def record_live_result(session: Session, table_id: str,
                       game: dict[str, Any] | None) -> str | None:
    """Store a finished game's result in the tournament game played there; a referee's
    later correction at the table replaces it (and asks the players to confirm again),
    a result entered by hand is never replaced. Returns the tournament's id when
    something was stored."""
    if not game or not game.get("over"):
        return None
    match = session.scalar(select(MatchRow).where(MatchRow.table_id == table_id,
                                                  MatchRow.game_seq == game["seq"]))
    if match is None:
        return None
    result = live_result(game)
    old = match.result
    if old is not None and (old.get("source") != "live" or (
            old["scores"], old["winners"]) == (result["scores"], result["winners"])):
        return None
    match.result = result
    return match.tournament_id


def confirm_result(session: Session, clock: Clock, tournament_id: str, match_id: int,
                   player: str, code: str, agree: bool, host: str | None = None) -> dict[str, Any]:
    """A player agrees (or not) with the game's final scores, signing with their own code
    (:class:`~station.tournament.codes.WrongCode` otherwise). The signature is recorded: who,
    when, from where, and the scores signed. A "no" flags the game until the organiser
    settles it; a later "yes", even the same player's, does not undo the flag."""
    match = service.match_row(session, tournament_id, match_id)
    if player not in match.players:
        raise TournamentRefusal(f"{player!r} did not play game {match_id}")
    if service.is_bye(match):
        raise TournamentRefusal(f"game {match_id} is a bye: there is nothing to confirm")
    check_code(session, match, player, code)
    if not match.result or not match.result.get("final", True):
        raise TournamentRefusal(f"game {match_id} has no final result to confirm yet")
    _record_stored_dispute(match, clock)
    match.result = {**match.result,
                    "confirmations": {**match.result.get("confirmations", {}), player: agree}}
    match.signing.append(MatchSigningRow(
        kind=signing.AGREE if agree else signing.DISAGREE, who=player, at=clock.now(),
        host=host, scores=dict(match.result["scores"])))
    session.flush()
    return service.match_json(match, None)


def _record_stored_dispute(match: MatchRow, clock: Clock) -> None:
    """A result disputed before the signing record existed (its ``disputed`` flag): its
    disagreeing players go into the record first, so a new "agree" cannot lift it."""
    if not match.result or match.result.get("disputed") is not True or match.signing:
        return
    for player in signing.disagreeing(match):
        match.signing.append(MatchSigningRow(kind=signing.DISAGREE, who=player, at=clock.now(),
                                             note="said before the signing record"))
    match.result = {key: value for key, value in match.result.items() if key != "disputed"}


def settle_dispute(session: Session, clock: Clock, tournament_id: str, match_id: int,
                   author: str, note: str, scores: dict[str, int] | None = None,
                   winners: Sequence[str] | None = None,
                   tie_break: dict[str, int] | None = None) -> dict[str, Any]:
    """The organiser settles a disputed game: the result as it stands, or ``scores`` (and
    ``winners``) entered as by hand; who settled, when and why are recorded. 409 when the
    game is not disputed: there is nothing to settle."""
    match = service.match_row(session, tournament_id, match_id)
    note = note.strip()
    if not note:
        raise TournamentRefusal("a settlement needs a note: why the result stands, or what "
                                "changed")
    if not signing.disagreeing(match):
        raise TournamentConflict(f"game {match_id} has no dispute to settle")
    if scores is not None:
        service.record_result(session, clock, None, tournament_id, match_id, scores, winners,
                              author, tie_break)
    match.signing.append(MatchSigningRow(
        kind=signing.SETTLE, who=author, at=clock.now(), note=note,
        scores=dict(match.result["scores"]) if scores is not None else None))
    session.flush()
    return service.match_json(match, None)


def signing_view(session: Session, tournament_id: str, match_id: int) -> dict[str, Any]:
    """For the organiser only: each player's code for the game and its signing record (who
    signed what, when, from where; who settled, when and why)."""
    match = service.match_row(session, tournament_id, match_id)
    if service.is_bye(match):
        raise TournamentRefusal(f"game {match_id} is a bye: its player signs nothing")
    codes = codes_of(session, match)
    return {"tournament": tournament_id, "game": match.id, "round": match.round,
            "table": match.table_id, "codes": [{"player": p, "code": codes[p]} for p in codes],
            "disputed": bool(signing.disagreeing(match)), "signing": signing.record(match)}


def game_to_sign(session: Session, station: Station | None, tournament_id: str,
                 match_id: int) -> dict[str, Any]:
    """What a player's phone page shows of a game: the tournament, the game and its result
    (public, as everywhere: no code)."""
    tournament = service.tournament_row(session, tournament_id)
    match = service.match_row(session, tournament_id, match_id)
    if service.is_bye(match):
        raise TournamentRefusal(f"game {match_id} is a bye: there is nothing to sign")
    return {"tournament": {"id": tournament.id, "name": tournament.name},
            **service.match_json(match, station)}


def game_at_table(session: Session, table_id: str, game_seq: int | None) -> dict[str, Any]:
    """The tournament game played at a table for its game started at ``game_seq``."""
    match = session.scalar(select(MatchRow).where(MatchRow.table_id == table_id,
                                                  MatchRow.game_seq == game_seq))
    if match is None:
        raise service.UnknownTournament(f"no tournament game is played at {table_id!r} now")
    return {"tournament": match.tournament_id, **service.match_json(match, None)}


class ResultsRecorder:
    """Watches stored table snapshots (a hub watcher) and records finished tournament games,
    in a thread of its own so no writer waits; ``on_recorded(tournament_id)`` follows."""

    def __init__(self, database: Database, on_recorded: Any) -> None:
        self.database = database
        self.on_recorded = on_recorded
        self._work: queue.Queue[tuple[str, dict[str, Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="packref-results", daemon=True)
        self._thread.start()

    def __repr__(self) -> str:
        return f"<ResultsRecorder {self._work.qsize()} waiting>"

    def __call__(self, channel: str, message: str) -> None:
        """A hub watcher: only finished games are queued."""
        if '"over": true' not in message:
            return
        snapshot = json.loads(message).get("snapshot") or {}
        game = snapshot.get("game")
        if game and game.get("over"):
            self._work.put((channel.removeprefix("table:"), game))

    def stop(self) -> None:
        self._work.put(None)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while (item := self._work.get()) is not None:
            try:
                with self.database.session() as session:
                    tournament_id = record_live_result(session, *item)
                if tournament_id:
                    self.on_recorded(tournament_id)
            except Exception:  # the hub may be away: the page still shows the live result
                log.exception("cannot record the result of %s", item[0])
