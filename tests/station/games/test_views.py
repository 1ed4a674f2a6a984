"""Drawing views: each game record's presenter works on its engine's real states."""

from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import station.games as games_package
from rules import game_names, get_game
from station.games import game_record, game_records, present
from station.games.views import generic_view
from station.live.hub import Hub
from station.live.station import Station
from station.store import EventStore, FixedClock, open_database


def played(game_name: str, players: int, moves: int, seed: int = 2):
    game = get_game(game_name)
    count = min(max(players, game.min_players), game.max_players)
    state = game.new_game(["Ana", "Ben", "Cas", "Dee"][:count], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def marks(view: dict) -> set[str]:
    return {mark for board in view["boards"] for row in board["rows"] for cell in row
            if cell for mark in cell["m"]}


@pytest.mark.parametrize("game_name", [record.name for record in game_records()
                                       if record.presenter is not None])
def test_each_games_presenter_draws_its_engines_states(game_name: str) -> None:
    if game_name not in game_names():
        pytest.skip(f"{game_name} has no engine in this checkout")
    state = played(game_name, 3, 12)
    view = game_record(game_name).presenter(state)  # raises if the engine changed shape
    assert present(state) == view
    if game_name == "removal":
        assert len(view["boards"]) == 3 and "minus" in marks(view)
    elif game_name == "moving-day":
        assert len(view["boards"]) == 9
        assert "damaged" in marks(present(played(game_name, 3, 60)))
    elif game_name == "small-warehouse":
        assert [board["title"] for board in view["boards"]][:2] == ["Ana's warehouse",
                                                                    "Ben's warehouse"]
    else:
        assert set(view["drone"]) == {"reached", "face_down", "pilots"}


def test_any_other_game_gets_the_grids_found_in_its_state(toy_game: str) -> None:
    state = get_game(toy_game).new_game(["Ana", "Ben"], seed=0)
    state.apply({"type": "add", "n": 2})
    view = present(state)
    assert view["boards"] == [{"title": "track", "rows": [
        [{"t": "#", "k": "#", "m": []}, {"t": "#", "k": "#", "m": []}, None, None, None],
        [None] * 5]}]
    assert "to_act: 1" in view["lines"]


def test_the_generic_view_shows_no_hidden_hand_or_pile() -> None:
    """The fallback is served to everyone: it draws the public view, not the engine's data
    (which holds each player's hand)."""
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=1)
    hands = {card for hand in state.data["hands"] for card in hand}
    view = generic_view(state)
    drawn = {cell["t"] for board in view["boards"] for row in board["rows"] for cell in row
             if cell}
    assert hands and not drawn & hands
    assert not any(card in str(view) for card in hands)


def _broken(state):
    raise KeyError("box_fields")  # as when an engine renames what its presenter reads


def test_a_failing_presenter_is_logged_and_the_table_shows_the_generic_view_marked(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    failing = dataclasses.replace(game_record("moving-day"), presenter=_broken)
    monkeypatch.setattr(games_package, "game_record", lambda name: failing)
    state = played("moving-day", 2, 3)
    with caplog.at_level(logging.ERROR, logger="packref.games"):
        view = present(state, "t7")
    assert view["boards"] == generic_view(state)["boards"]
    assert view["problem"].startswith("Moving Day's own drawing failed")
    [logged] = caplog.records
    assert logged.exc_info is not None and logged.exc_info[0] is KeyError
    assert "moving-day" in logged.getMessage() and "t7" in logged.getMessage()


@pytest.fixture
def table_t1(tmp_path: Path) -> Iterator[Station]:
    """A station on a fresh SQLite file with one table, ``t1``."""
    database = open_database(f"sqlite:///{tmp_path / 'station.sqlite3'}")
    live = Station(EventStore(database, FixedClock()), Hub())
    live.create_table("Table 1", "t1")
    yield live
    database.close()


def test_a_live_tables_failing_view_names_the_table_in_the_log_and_on_its_page(
        table_t1: Station, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    station = table_t1
    failing = dataclasses.replace(game_record("moving-day"), presenter=_broken)
    monkeypatch.setattr(games_package, "game_record", lambda name: failing)
    with caplog.at_level(logging.ERROR, logger="packref.games"):
        station.start_game("t1", "moving-day", ["Ana", "Ben"], seed=4, options=None,
                           author="organiser")
        view = station.snapshot("t1")["game"]["view"]
    assert view["problem"].startswith("Moving Day's own drawing failed")
    assert any("t1" in entry.getMessage() for entry in caplog.records)
