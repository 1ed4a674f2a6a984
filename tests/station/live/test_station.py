"""The live loop's core: observations → translator → engine → store, and replay on restart."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from rules import IllegalAction, State
from station.live import translators
from station.live.hub import Hub
from station.live.public import public_entry
from station.live.station import Station, UnknownTable
from station.live.table import LiveTable, TableRefusal, game_start_state
from station.store import Database, EventStore, FixedClock
from tests.station.live.conftest import use_referee


def declared(n: int) -> dict[str, Any]:
    return {"kind": "declared", "action": {"type": "add", "n": n}}


@pytest.fixture
def station(database: Database, toy_game: str) -> Station:
    station = Station(EventStore(database, FixedClock()), Hub())
    station.create_table("Table 1", "t1")
    station.start_game("t1", toy_game, ["Ana", "Ben"], seed=0, options=None, author="organiser")
    return station


def totals(station: Station) -> list[int]:
    return [score["total"] for score in station.snapshot("t1")["game"]["scores"]]


def test_a_legal_action_is_applied_and_an_illegal_one_flagged_with_the_engines_reason(
        station: Station) -> None:
    station.observe("t1", declared(2), "button", "camera")
    station.observe("t1", declared(3), "button", "camera")
    snapshot = station.snapshot("t1")
    assert totals(station) == [2, 0]
    assert snapshot["flags"] == [{"seq": 5, "at": snapshot["flags"][0]["at"],
                                  "action": {"type": "add", "n": 3},
                                  "reason": "you may add 1 or 2"}]
    kinds = [(e.kind, e.author) for e in station.store.events("t1")]
    assert kinds == [("game", "organiser"), ("observation", "camera"), ("action", "camera"),
                     ("observation", "camera"), ("flag", "camera")]


def test_a_referee_accepts_corrects_and_undoes_with_new_events_only(station: Station) -> None:
    station.observe("t1", declared(1), "button", "camera")      # Ana 1
    station.observe("t1", declared(3), "button", "camera")      # flag 5
    station.correct("t1", {"type": "add", "n": 2}, "referee", flag=5)  # Ben 2
    assert totals(station) == [1, 2] and station.snapshot("t1")["flags"] == []
    station.observe("t1", declared(7), "button", "camera")      # flag 8
    station.accept("t1", 8, "referee")
    station.undo("t1", "referee")                               # takes back Ben's 2
    assert totals(station) == [1, 0]
    assert station.snapshot("t1")["game"]["current_player"] == 1
    with pytest.raises(TableRefusal):
        station.accept("t1", 8, "referee")
    with pytest.raises(IllegalAction, match="you may add 1 or 2"):
        station.correct("t1", {"type": "add", "n": 5}, "referee")
    kinds = [e.kind for e in station.store.events("t1")]
    assert kinds[-4:] == ["observation", "flag", "accept", "undo"]
    assert len(kinds) == 10  # the refused requests stored nothing


def test_a_restarted_station_rebuilds_every_table_exactly(station: Station) -> None:
    for n in (1, 2, 3, 2):
        station.observe("t1", declared(n), "button", "camera")
    station.undo("t1", "referee")
    before = station.snapshot("t1")
    restarted = Station(EventStore(station.store.database), Hub())
    assert restarted.resume() == ["t1"]
    assert restarted.snapshot("t1") == before


def test_a_new_game_at_the_table_keeps_the_last_one_in_the_record(station: Station,
                                                                 toy_game: str) -> None:
    for _ in range(5):
        station.observe("t1", declared(2), "button", "camera")
    assert station.snapshot("t1")["game"]["over"]
    station.observe("t1", declared(1), "button", "camera")
    assert station.snapshot("t1")["flags"][0]["reason"] == "the game is over"
    station.start_game("t1", toy_game, ["Cas", "Dee"], seed=1, options=None, author="organiser")
    snapshot = station.snapshot("t1")
    assert snapshot["game"]["players"] == ["Cas", "Dee"] and snapshot["flags"] == []
    assert snapshot["past_games"][0]["winners"] == ["Ana"]


def test_unknown_tables_and_bad_setups_are_refused(station: Station, toy_game: str) -> None:
    with pytest.raises(UnknownTable):
        station.snapshot("nope")
    with pytest.raises(ValueError, match="takes 2 to 4 players"):
        station.start_game("t1", toy_game, ["Solo"], seed=1, options=None, author="x")
    assert station.store.last_seq("t1") == 1


class CountingTranslator:
    """Turns {"kind": "counter", "value": v} into an 'add' of the rise since the last reading."""

    def __init__(self) -> None:
        self.last = 0

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[dict[str, Any]]:
        if observation.get("kind") != "counter":
            return []
        rise, self.last = observation["value"] - self.last, observation["value"]
        if rise < 0:
            raise IllegalAction("the counter went backwards")
        return [{"type": "add", "n": rise}] if rise else []


def test_a_games_translator_is_used_and_its_memory_survives_a_restart(
        database: Database, toy_game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    use_referee(monkeypatch, toy_game, CountingTranslator)
    station = Station(EventStore(database, FixedClock()))
    station.create_table("Table 1", "t1")
    station.start_game("t1", toy_game, ["Ana", "Ben"], seed=0, options=None, author="o")
    station.observe("t1", {"kind": "counter", "value": 2}, "sensor", "drone")
    station.observe("t1", {"kind": "counter", "value": 2}, "sensor", "drone")  # no change
    restarted = Station(EventStore(database, FixedClock()))
    restarted.observe("t1", {"kind": "counter", "value": 3}, "sensor", "drone")  # rise of 1
    restarted.observe("t1", {"kind": "counter", "value": 1}, "sensor", "drone")
    snapshot = restarted.snapshot("t1")
    assert [s["total"] for s in snapshot["game"]["scores"]] == [2, 1]
    assert snapshot["flags"][0]["reason"] == "the counter went backwards"


def test_the_tables_translator_is_the_referee_its_games_record_names(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Silent:
        def translate(self, state, observation):  # type: ignore[no-untyped-def]
            return []

    assert type(translators.TableTranslator("removal").inner).__name__ == "Referee"
    use_referee(monkeypatch, "removal", Silent)
    assert isinstance(translators.TableTranslator("removal").inner, Silent)


def test_two_stations_sharing_a_hub_database_never_lose_or_repeat_an_event(
        database: Database, toy_game: str) -> None:
    first = Station(EventStore(database, FixedClock()))
    first.create_table("Table 1", "t1")
    first.start_game("t1", toy_game, ["Ana", "Ben"], seed=0, options=None, author="o")
    second = Station(EventStore(database, FixedClock()))
    second.table("t1")  # loaded now, then left behind by the first station's writes
    first.observe("t1", declared(1), "button", "station-1")
    second.observe("t1", declared(2), "button", "station-2")  # reloads, then writes on top
    first.observe("t1", declared(1), "button", "station-1")
    events = first.store.events("t1")
    assert [e.seq for e in events] == list(range(1, 8))
    assert [e.author for e in events if e.kind == "action"] == [
        "station-1", "station-2", "station-1"]
    assert totals(first) == [2, 2] and second.snapshot("t1")["game"]["scores"][1]["total"] == 2


def test_drone_readings_are_kept_for_the_mass_graph_and_other_frames_are_not(
        station: Station) -> None:
    station.observe("t1", {"kind": "telemetry", "event": "load", "mass_g": 12.5}, "drone", "d")
    station.observe("t1", {"kind": "frame", "cells": ["...."]}, "camera", "c")
    snapshot = station.snapshot("t1")
    assert [r["observation"]["mass_g"] for r in snapshot["readings"]] == [12.5]
    assert snapshot["last_observation"]["observation"]["kind"] == "frame"
    assert totals(station) == [0, 0]  # no translator for these: stored, nothing applied


class BrokenTranslator:
    def translate(self, state: State, observation: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "add", "n": observation["pips"]}]  # KeyError on other observations


def test_a_translators_crash_is_a_flag_not_a_stopped_table(
        database: Database, toy_game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    use_referee(monkeypatch, toy_game, BrokenTranslator)
    station = Station(EventStore(database, FixedClock()))
    station.create_table("Table 1", "t1")
    station.start_game("t1", toy_game, ["Ana", "Ben"], seed=0, options=None, author="o")
    station.observe("t1", {"kind": "frame"}, "camera", "c")
    station.observe("t1", {"kind": "frame", "pips": 2}, "camera", "c")
    snapshot = station.snapshot("t1")
    assert snapshot["flags"][0]["reason"] == "the translator could not read this (KeyError: 'pips')"
    assert [s["total"] for s in snapshot["game"]["scores"]] == [2, 0]


def test_a_persons_entries_go_with_the_readings_that_follow_until_one_leads_to_actions(
        monkeypatch: pytest.MonkeyPatch, database: Database, toy_game: str) -> None:
    seen: list[dict] = []

    class Referee:
        def translate(self, state, observation):
            seen.append(dict(observation))
            return [{"type": "add", "n": observation["n"]}] if observation.get("pips") else []

    use_referee(monkeypatch, toy_game, Referee)
    station = Station(EventStore(database, FixedClock()))
    station.create_table("Table 1", "t1")
    station.start_game("t1", toy_game, ["Ana", "Ben"], seed=0, options=None, author="o")
    station.observe("t1", {"kind": "person", "n": 2}, "person", "p")
    station.observe("t1", {"kind": "camera"}, "camera", "c")
    station.observe("t1", {"kind": "camera", "pips": 1}, "camera", "c")
    assert totals(station) == [2, 0]
    assert seen == [{"kind": "camera", "n": 2}, {"kind": "camera", "pips": 1, "n": 2}]
    station.observe("t1", {"kind": "camera"}, "camera", "c")
    assert seen[-1] == {"kind": "camera"}  # used once: the entries are gone
    assert station.snapshot("t1")["entries"] == []
    restarted = Station(EventStore(database, FixedClock()))  # a replay gives the same
    assert restarted.snapshot("t1") == station.snapshot("t1")


def test_a_persons_entry_reads_the_last_reading_again(
        monkeypatch: pytest.MonkeyPatch, station: Station, toy_game: str) -> None:
    class Referee:  # waits for a person to say how many
        def translate(self, state, observation):
            if observation.get("pips") and "n" not in observation:
                raise IllegalAction("how many? enter it")
            return [{"type": "add", "n": observation["n"]}] if observation.get("pips") else []

    use_referee(monkeypatch, toy_game, Referee)
    station.start_game("t1", toy_game, ["Ana", "Ben"], seed=0, options=None, author="o")
    station.observe("t1", {"kind": "camera", "pips": 1}, "camera", "c")
    assert [f["reason"] for f in station.snapshot("t1")["flags"]] == ["how many? enter it"]
    events = station.observe("t1", {"kind": "person", "n": 2}, "person", "p")
    assert [e.kind for e in events] == ["observation", "action"]
    assert totals(station) == [2, 0]
    assert station.snapshot("t1")["entries"] == []


FACE_DOWN = {"action": {"type": "speculate", "card": 4}, "reason": "seen by the camera"}


def public_from_the_start(station: Station, table_id: str, after: int,
                          limit: int | None) -> list[dict[str, Any]]:
    """What the table shows after ``after``, found by reading its whole record (the slow
    way ``Station.public_events`` must agree with)."""
    state, shown = None, []
    for event in station.store.events(table_id):
        if event.kind == "game":
            state = game_start_state(event.payload)[1]
        if event.seq > after:
            entry = event.to_json()
            shown.append(entry if state is None else public_entry(state, entry))
    return shown[:limit]


def test_public_events_of_many_games_show_each_game_as_its_table_saw_it(
        station: Station, toy_game: str) -> None:
    # 3 flags before any game, then 8 games of 40 events, Pick 'n Packers (a speculation
    # face down) and the toy game (every face shown) in turn, through the real store.
    station.create_table("Long table", "long")
    station.store.append("long", [("flag", FACE_DOWN)] * 3, "camera")
    plans = [LiveTable(station.table("long").info).plan_game(game, ["Ana", "Ben", "Cas"], 1,
                                                               None)
             for game in ("pick-n-packers", toy_game)]
    for number in range(8):
        station.store.append("long", plans[number % 2] + [("flag", FACE_DOWN)] * 39, "camera")
    station.forget("long")  # written past the live view: loaded again, as after a restart
    starts = [event.seq for event in station.store.events("long") if event.kind == "game"]
    assert len(starts) == 8 and station.table("long").current.seq == starts[-1] == 284
    cursors = sorted({0, 1, 2, 3, 100, 200, 323}
                     | {start + step for start in starts for step in (-2, -1, 0, 1)})
    for after in cursors:
        for limit in (None, 5):
            assert station.public_events("long", after, limit) == \
                public_from_the_start(station, "long", after, limit), (after, limit)
    shown = station.public_events("long", 2, 120)
    cards = [event["action"]["card"] if "action" in event else event["kind"] for event in shown]
    assert cards == [4, "game"] + [None] * 39 + ["game"] + [4] * 39 + ["game"] + [None] * 38
