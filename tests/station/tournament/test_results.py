"""Results from the table: stored once the game is over, replaced by a table's correction,
never over a result entered by hand."""

from __future__ import annotations

from station.store import Database
from station.store.clock import FixedClock
from station.store.models import MatchRow, TableRow, TournamentRow
from station.tournament.results import record_live_result


def game(over: bool, ana: int = 5, ben: int = 3) -> dict:
    return {"seq": 1, "over": over, "winners": ["Ana"] if ana > ben else ["Ben"],
            "scores": [{"player": "Ana", "total": ana}, {"player": "Ben", "total": ben}]}


def test_the_result_is_stored_when_the_game_ends_and_follows_corrections(
        database: Database) -> None:
    now = FixedClock().now()
    with database.session() as session:
        session.add_all([TableRow(id="t1", name="T1", created_at=now),
                         TournamentRow(id="cup", name="Cup", tie_breakers=["wins"],
                                       created_at=now)])
        session.flush()
        session.add(MatchRow(tournament_id="cup", round=1, players=["Ana", "Ben"],
                             table_id="t1", game_seq=1))
    with database.session() as session:
        assert record_live_result(session, "t1", game(over=False)) is None
        assert record_live_result(session, "t1", game(over=True)) == "cup"
        assert record_live_result(session, "t1", game(over=True)) is None  # once
        assert record_live_result(session, "t9", game(over=True)) is None
    with database.session() as session:
        assert record_live_result(session, "t1", game(over=True, ana=2)) == "cup"
        row = session.get(MatchRow, 1)
        assert row.result["winners"] == ["Ben"] and row.result["confirmations"] == {}
        row.result = {**row.result, "source": "hand"}
    with database.session() as session:
        assert record_live_result(session, "t1", game(over=True)) is None  # hand stays
        assert session.get(MatchRow, 1).result["winners"] == ["Ben"]
