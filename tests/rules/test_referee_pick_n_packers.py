"""The Pick 'n Packers referee: a pure translator, tested alone and against the engine."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules.referees import PickNPackersReferee, translate

REFEREE_SOURCE = Path(__file__).resolve().parents[2] / "rules" / "referees" / "pick_n_packers.py"


def ev(t: float, kind: str, mass: float = 10.0) -> dict:
    return {"t": t, "event": kind, "mass_g": mass}


def flight(start: float, card: int, mass: float = 10.0) -> tuple[list[dict], list[dict]]:
    """Load at ``start``, lift, land 3 s later on ``card``: events and the camera's positions."""
    events = [ev(start, "load", mass), ev(start + 1, "lift", mass), ev(start + 3, "land", mass)]
    return events, [{"t": start + 3.3, "card": card}]


def circuit(cards: list[int]) -> tuple[list[dict], list[dict]]:
    events, positions = [], []
    for index, card in enumerate(cards):
        more_events, more_positions = flight(5.0 * index, card)
        events += more_events
        positions += more_positions
    return events, positions


def test_a_full_circuit_reaches_nine() -> None:
    events, positions = circuit([1, 2, 3, 4, 5, 6, 7, 8, 0])
    result = translate(events, positions)
    assert result.reached == 9 and result.ending == "home"
    assert result.actions[:2] == [{"type": "load"}, {"type": "land", "card": 1}]
    assert result.actions[-1] == {"type": "land", "card": 0}
    assert len(result.actions) == 18


def test_a_wrong_card_ends_the_challenge_at_the_last_right_one() -> None:
    events, positions = circuit([1, 2, 4, 5])
    result = translate(events, positions)
    assert result.reached == 2 and result.ending == "wrong-landing"
    assert result.actions[-1] == {"type": "land", "card": 4}
    assert result.notes and result.notes[-1]["reason"].startswith("outside a challenge")


def test_a_drop_in_flight_is_a_fall_and_reached_stays() -> None:
    events, positions = circuit([1, 2])
    events.insert(-1, ev(7.0, "drop", 0.0))  # during the second flight (5 to 8 s)
    result = translate(sorted(events, key=lambda e: e["t"]), positions)
    assert result.actions == [{"type": "load"}, {"type": "land", "card": 1}, {"type": "load"},
                              {"type": "fall"}]
    assert result.reached == 1 and result.ending == "fall"


def test_a_fall_during_the_landing_means_the_landing_does_not_count() -> None:
    events, positions = circuit([1])
    events.append(ev(3.2, "drop", 0.0))
    result = translate(events, positions)
    assert result.actions == [{"type": "load"}, {"type": "fall"}]
    assert result.reached == 0
    late = translate(circuit([1])[0] + [ev(4.0, "drop", 0.0)], positions)
    assert late.actions[-2:] == [{"type": "land", "card": 1}, {"type": "fall"}]
    assert late.reached == 1


def test_foul_and_undo_buttons() -> None:
    events, positions = circuit([1, 2])
    touched = translate(events, positions, buttons=[{"t": 6.0, "button": "foul"}])
    assert touched.actions[-1] == {"type": "touch"} and touched.reached == 1
    undone = translate(events, positions, buttons=[{"t": 6.0, "button": "foul"},
                                                   {"t": 6.5, "button": "undo"}])
    assert {"type": "touch"} not in undone.actions
    assert undone.reached == 2 and undone.ending is None


def test_start_button_begins_the_challenge_and_a_new_one() -> None:
    events, positions = circuit([1, 2])
    later = [dict(event, t=event["t"] + 100) for event in events]
    later_positions = [dict(position, t=position["t"] + 100) for position in positions]
    buttons = [{"t": 4.0, "button": "start"}, {"t": 99.0, "button": "start"}]
    result = translate(events + later, positions + later_positions, buttons)
    # Before the first start: the first load and landing are ignored.
    assert result.notes[0]["reason"].startswith("outside a challenge")
    assert result.reached == 2


def test_double_loads_and_drops_with_nothing_loaded_are_noted_not_sent() -> None:
    result = translate([ev(0.5, "drop", 0.0), ev(1.0, "load"), ev(1.5, "load"),
                        ev(2.0, "lift"), ev(4.0, "land")], None)
    assert result.actions == [{"type": "load"}, {"type": "land", "card": 1}]
    reasons = [note["reason"] for note in result.notes]
    assert reasons == ["nothing is loaded on the drone", "this card's present is already loaded"]


def test_landing_without_loading_or_without_a_position() -> None:
    result = translate([ev(1.0, "lift"), ev(3.0, "land")], [])
    assert result.actions == [] and "without the present" in result.notes[0]["reason"]
    result = translate([ev(0.0, "load"), ev(1.0, "lift"), ev(3.0, "land")],
                       [{"t": 0.0, "card": 0}], [])
    assert result.actions[-1] == {"type": "land", "card": 0}  # still seen on "0/9": wrong
    assert result.ending == "wrong-landing"
    result = translate([ev(5.0, "load"), ev(6.0, "lift"), ev(8.0, "land")],
                       [{"t": 20.0, "card": 1}])
    assert "no position" in result.notes[0]["reason"]


def test_the_referee_imports_no_hardware_or_station() -> None:
    tree = ast.parse(REFEREE_SOURCE.read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert not imported & {"hardware", "station", "vision", "firmware"}
    assert "position_window_s=1.5" in repr(PickNPackersReferee())


def engine_round(actions: list[dict]):
    games = pytest.importorskip("rules.games.pick_n_packers")
    from rules import get_game

    state = get_game(games.GAME_NAME).new_game(["Ana", "Ben", "Cas"], seed=3)
    state.apply({"type": "speculate", "card": 4})
    for action in actions:
        state.apply(action)
    return state


@pytest.mark.parametrize(("cards", "extra", "reached"), [
    ([1, 2, 3, 4, 5, 6, 7, 8, 0], [], 9),
    ([1, 2, 3, 5], [], 3),
    ([1, 2, 3], [ev(14.5, "drop", 0.0)], 3),
    ([1, 2], [ev(8.0, "drop", 0.0)], 1),
])
def test_the_engine_takes_every_action_and_agrees_on_reached(cards, extra, reached) -> None:
    events, positions = circuit(cards)
    result = translate(sorted(events + extra, key=lambda e: e["t"]), positions)
    state = engine_round(result.actions)
    assert result.reached == reached
    (round_result,) = state.data["results"]
    assert round_result["reached"] == reached
    assert round_result["ending"] == result.ending
