"""Results from the table: a live game started for a tournament game gives its result by
itself when it ends; the players confirm the final scores on the table page, and a
disagreement flags the game for the organiser (who settles it by entering the result).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from station.store.database import Database
from station.store.models import MatchRow
from station.tournament import service
from station.tournament.service import TournamentRefusal

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


def confirm_result(session: Session, tournament_id: str, match_id: int, player: str,
                   agree: bool) -> dict[str, Any]:
    """A player agrees (or not) with the game's final scores; any "no" flags the game."""
    match = service.match_row(session, tournament_id, match_id)
    if player not in match.players:
        raise TournamentRefusal(f"{player!r} did not play game {match_id}")
    if not match.result or not match.result.get("final", True):
        raise TournamentRefusal(f"game {match_id} has no final result to confirm yet")
    confirmations = {**match.result.get("confirmations", {}), player: bool(agree)}
    match.result = {**match.result, "confirmations": confirmations,
                    "disputed": not all(confirmations.values())}
    return service.match_json(match, None)


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
