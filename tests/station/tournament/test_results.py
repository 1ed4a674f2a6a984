"""Results from the table: stored once the game is over, replaced by a table's correction,
never over a result entered by hand; signed by each player with their code, a dispute kept
until the organiser settles it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from station.store import Database, open_database
from station.store.clock import FixedClock
from station.store.models import MatchRow, TableRow, TournamentRow
from station.tournament import service
from station.tournament.codes import WrongCode, codes_of
from station.tournament.results import (
    confirm_result,
    record_live_result,
    settle_dispute,
    signing_view,
)
from station.tournament.service import TournamentConflict, TournamentRefusal


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


def _live_game(session: Session) -> MatchRow:
    """Cup's game of Ana and Ben at t1 (started as the table's game 1), over: Ana 5, Ben 3."""
    now = FixedClock().now()
    session.add(TableRow(id="t1", name="T1", created_at=now))
    service.create_tournament(session, FixedClock(), "Cup", players=["Ana", "Ben"])
    match = session.get(MatchRow, service.add_match(session, "cup", 1, ["Ana", "Ben"], "t1")["id"])
    match.game_seq = 1
    assert record_live_result(session, "t1", game(over=True)) == "cup"
    return match


def test_a_dispute_outlives_an_agree_and_a_correction_at_the_table(database: Database) -> None:
    clock = FixedClock()
    with database.session() as session:
        match = _live_game(session)
        code = codes_of(session, match)
        with pytest.raises(WrongCode):
            confirm_result(session, clock, "cup", match.id, "Ben", code["Ana"], False)
        confirm_result(session, clock, "cup", match.id, "Ben", code["Ben"], False, "10.0.0.7")
        agreed = confirm_result(session, clock, "cup", match.id, "Ben", code["Ben"], True)
        assert agreed["result"]["disputed"] is True  # Ben's "yes" does not undo his "no"
        record_live_result(session, "t1", game(over=True, ana=4))  # the referee corrects it
        corrected = service.match_json(match, None)["result"]
        assert corrected["scores"] == {"Ana": 4, "Ben": 3} and corrected["confirmations"] == {}
        assert corrected["disputed"] is True
        assert service.tournament_detail(session, None, "cup")["disputes"][0]["disagree"] == [
            "Ben"]
        settled = settle_dispute(session, clock, "cup", match.id, "organiser", "as it stands")
        assert settled["result"]["disputed"] is False
        assert settled["result"]["scores"] == {"Ana": 4, "Ben": 3}
        view = signing_view(session, "cup", match.id)
        assert [(s["kind"], s["host"], s["scores"]) for s in view["signing"]] == [
            ("disagree", "10.0.0.7", {"Ana": 5, "Ben": 3}), ("agree", None, {"Ana": 5, "Ben": 3}),
            ("settle", None, None)]
        again = confirm_result(session, clock, "cup", match.id, "Ben", code["Ben"], False)
        assert again["result"]["disputed"] is True  # a new "no" after the ruling: a new dispute


def test_settling_needs_a_dispute_and_a_bye_signs_nothing(database: Database) -> None:
    clock = FixedClock()
    with database.session() as session:
        match = _live_game(session)
        with pytest.raises(TournamentConflict, match="no dispute to settle"):
            settle_dispute(session, clock, "cup", match.id, "organiser", "nothing")
        with pytest.raises(TournamentRefusal, match="needs a note"):
            settle_dispute(session, clock, "cup", match.id, "organiser", "  ")
        bye = MatchRow(tournament_id="cup", round=2, players=["Ana"],
                       result=service.bye_result("Ana"))
        session.add(bye)
        session.flush()
        with pytest.raises(TournamentRefusal, match="is a bye"):
            confirm_result(session, clock, "cup", bye.id, "Ana", "ABCD-EFGH", True)
        assert "disputed" not in service.match_json(bye, None)["result"]


def test_a_result_disputed_before_the_signing_record_stays_disputed(database: Database) -> None:
    with database.session() as session:
        match = _live_game(session)
        match.result = {**match.result, "confirmations": {"Ana": True, "Ben": False},
                        "disputed": True}  # as the station stored a "no" before its record
        assert service.tournament_detail(session, None, "cup")["disputes"][0]["disagree"] == [
            "Ben"]
        code = codes_of(session, match)
        confirm_result(session, FixedClock(), "cup", match.id, "Ben", code["Ben"], True)
        assert service.match_json(match, None)["result"]["disputed"] is True
        settle_dispute(session, FixedClock(), "cup", match.id, "organiser", "looked at it")
        assert service.tournament_detail(session, None, "cup")["disputes"] == []


def test_a_database_made_before_codes_gains_their_tables_when_opened(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = open_database(url)
    with old.session() as session:
        match = _live_game(session)
        game_id = match.id
    with old.engine.begin() as connection:  # as a station stored it before this version
        connection.execute(text("DROP TABLE match_signing"))
        connection.execute(text("DROP TABLE match_codes"))
        connection.execute(text("DROP TABLE alembic_version"))  # made before migrations too
    old.close()
    reopened = open_database(url)
    try:
        with reopened.session() as session:
            match = session.get(MatchRow, game_id)
            code = codes_of(session, match)["Ana"]  # made when the organiser asks
            signed = confirm_result(session, FixedClock(), "cup", game_id, "Ana", code, True)
        assert signed["result"]["confirmations"] == {"Ana": True}
    finally:
        reopened.close()
