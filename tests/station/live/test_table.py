"""A live table's snapshot: the last move, who made it, in words, and the cells it filled."""

from __future__ import annotations

from rules import get_game
from station.games import present
from station.games.views import changed_cells
from station.live.hub import Hub
from station.live.station import Station
from station.store import EventStore

PLAYERS = ["Ana", "Ben", "Cas"]


def _play(station: Station, moves: int):
    station.start_game("t1", "moving-day", PLAYERS, seed=4, options=None, author="organiser")
    state = get_game("moving-day").new_game(PLAYERS, seed=4)
    for _ in range(moves):
        action = state.legal_actions()[0]
        state.apply(action)
        station.observe("t1", {"kind": "declared", "action": action}, "api", "organiser")
    return state


def test_the_last_move_names_its_player_words_and_the_cells_it_filled(station: Station) -> None:
    state = _play(station, 2)
    earlier = get_game("moving-day").new_game(PLAYERS, seed=4)
    earlier.apply(state.log[0])  # the table before Ben's move
    last = state.log[-1]
    move = station.snapshot("t1")["game"]["last_move"]
    assert move["player"] == earlier.players[earlier.current_player()] == "Ben"
    assert move["text"].startswith("Ben took group ")
    assert move["action"] == last
    boxes = [(f"Ben: {box['vehicle']}", box["row"], box["col"]) for box in last["boxes"]]
    assert [(c["board"], c["row"], c["col"]) for c in move["cells"]] == boxes
    assert move["cells"] == changed_cells(present(earlier), present(state))


def test_after_an_undo_or_a_restart_the_last_move_is_the_one_still_applied(
        station: Station) -> None:
    _play(station, 3)
    third = station.snapshot("t1")["game"]["last_move"]
    station.undo("t1", "referee")
    second = station.snapshot("t1")["game"]["last_move"]
    assert second["seq"] < third["seq"] and second["player"] == "Ben"
    assert second["cells"] and second["cells"] != third["cells"]
    restarted = Station(EventStore(station.store.database), Hub())
    restarted.resume()
    assert restarted.snapshot("t1")["game"]["last_move"] == second  # rebuilt from the record


def test_a_game_with_no_move_yet_has_no_last_move(station: Station) -> None:
    _play(station, 0)
    assert station.snapshot("t1")["game"]["last_move"] is None


def test_every_recent_event_has_words_observations_too(station: Station) -> None:
    _play(station, 1)
    recent = station.snapshot("t1")["recent"]
    assert [entry["kind"] for entry in recent] == ["action", "observation", "game"]
    assert recent[1]["text"] == "Declared by hand"
    assert all(entry["text"] for entry in recent)
