"""The Pick 'n Packers referee: a pure translator, tested alone and against the engine."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules.games.pick_n_packers.referee import PickNPackersReferee, translate

REPO = Path(__file__).resolve().parents[4]
REFEREE_SOURCE = REPO / "rules" / "games" / "pick_n_packers" / "referee.py"


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


# -- the live referee: one observation at a time --------------------------------------------
def observations(events: list[dict], positions: list[dict],
                 buttons: list[dict] = ()) -> list[dict]:
    """The batch inputs as the station's observations, in time order (as a source sends them)."""
    stream = [(p["t"], 0, {"kind": "drone-position", **p}) for p in positions]
    stream += [(e["t"], 1, {"kind": "drone-event", **e}) for e in events]
    stream += [(b["t"], 2, {"kind": "button", **b}) for b in buttons]
    return [item for _, _, item in sorted(stream, key=lambda entry: entry[:2])]


def live_run(items: list[dict], referee=None, state=None) -> tuple[list[dict], object]:
    """Feed ``items`` to a live referee beside a real engine; the actions and the state."""
    from rules.games.pick_n_packers.referee import Referee

    referee = referee or Referee()
    state = state or engine_round([])
    actions = []
    for item in items:
        before = state.to_json()
        settled = referee.translate(state, item)
        assert state.to_json() == before  # the referee only reads the state
        for action in settled:
            state.apply(action)
        actions += settled
    return actions, state


def finished(items: list[dict]) -> list[dict]:
    """``items`` and a drone clock long after, which releases whatever is held."""
    return [*items, {"kind": "drone-clock", "t": max(i["t"] for i in items) + 10, "mass_g": 0.0}]


def with_drop(cards: list[int], t: float) -> tuple[list[dict], list[dict]]:
    events, positions = circuit(cards)
    return sorted([*events, ev(t, "drop", 0.0)], key=lambda e: e["t"]), positions


@pytest.mark.parametrize(("events", "positions", "buttons"), [
    (*circuit([1, 2, 3, 4, 5, 6, 7, 8, 0]), []),
    (*circuit([1, 2, 4, 5]), []),
    (*with_drop([1, 2], 7.0), []),      # in flight
    (*with_drop([1], 3.2), []),         # during the landing: it does not count
    (*with_drop([1], 3.5), []),         # at the window's edge: still during the landing
    (*with_drop([1, 2], 4.0), []),      # after it: the landing counts, then the fall
    (*circuit([1, 2]), [{"t": 6.0, "button": "foul"}]),
    (*circuit([1, 2]), [{"t": -1.0, "button": "start"},
                        {"t": 5.5, "button": "start"}]),   # the second: under way, ignored
    ([ev(1.0, "lift"), ev(3.0, "land"), ev(4.0, "load"), ev(4.5, "load")], [], []),
])
def test_the_live_referee_sends_what_the_batch_referee_sends(events, positions, buttons) -> None:
    batch = translate(events, positions, buttons)
    actions, state = live_run(finished(observations(events, positions, buttons)))
    assert actions == batch.actions
    if batch.ending is not None:
        assert state.data["results"][0]["reached"] == batch.reached
        assert state.data["results"][0]["ending"] == batch.ending


def test_a_landing_is_held_until_an_observation_past_the_fall_window() -> None:
    from rules.games.pick_n_packers.referee import Referee

    referee, state = Referee(), engine_round([{"type": "load"}])
    steps = [({"kind": "drone-event", "t": 3.0, "event": "land", "mass_g": 9.0}, []),
             ({"kind": "drone-position", "t": 3.3, "card": 1}, []),   # card known, window open
             ({"kind": "button", "t": 3.5, "button": "start"}, []),   # t - 3.0 = 0.5: not past
             ({"kind": "drone-clock", "t": 3.51, "mass_g": 9.0}, [{"type": "land", "card": 1}])]
    for observation, expected in steps:
        assert referee.translate(state, observation) == expected
    assert referee.held == []
    fallen = Referee()
    assert fallen.translate(state, {"kind": "drone-event", "t": 3.0, "event": "land",
                                    "mass_g": 9.0}) == []
    assert fallen.held and fallen.held[0]["event"] == "land"
    assert fallen.translate(state, {"kind": "drone-event", "t": 3.4, "event": "drop",
                                    "mass_g": 0.0}) == [{"type": "fall"}]
    assert "fell during the landing" in fallen.notes[-1]["reason"]


def test_without_a_position_the_landing_waits_for_the_position_window() -> None:
    from rules.games.pick_n_packers.referee import Referee

    referee, state = Referee(), engine_round([{"type": "load"}])
    referee.translate(state, {"kind": "drone-position", "t": 0.0, "card": 0})
    referee.translate(state, {"kind": "drone-event", "t": 3.0, "event": "land", "mass_g": 9.0})
    assert referee.translate(state, {"kind": "drone-clock", "t": 4.0, "mass_g": 9.0}) == []
    # Past 1.5 s with no position after the impact: the last one before it names the card.
    assert referee.translate(state, {"kind": "drone-clock", "t": 4.6, "mass_g": 9.0}) == [
        {"type": "land", "card": 0}]


def test_refeeding_the_same_observations_gives_the_same_memory_and_actions() -> None:
    from rules.games.pick_n_packers.referee import Referee

    events, positions = with_drop([1, 2, 3], 14.5)
    items = finished(observations(events, positions, [{"t": 7.0, "button": "start"}]))
    whole, whole_state = live_run(items)
    cut = next(i for i, item in enumerate(items) if item.get("event") == "land") + 1
    first, _ = live_run(items[:cut])           # a landing is held when the station stops
    restarted, replayed = Referee(), engine_round([])
    for item in items[:cut]:                   # the restart re-feeds the stored observations
        for action in restarted.translate(replayed, item):
            replayed.apply(action)             # (the station applies its stored actions)
    assert restarted.held == [{"t": 3.0, "event": "land", "mass_g": 10.0}]
    rest, end_state = live_run(items[cut:], restarted, replayed)
    assert first + rest == whole
    assert end_state.to_json() == whole_state.to_json()


def test_the_live_referee_refuses_what_makes_no_sense_with_a_reason() -> None:
    from rules import IllegalAction, get_game
    from rules.games.pick_n_packers.referee import Referee

    speculating = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], seed=3)
    flying = engine_round([])
    cases = [
        (speculating, {"kind": "button", "t": 1.0, "button": "foul"}, "speculation phase"),
        (flying, {"kind": "drone-position", "t": 1.0, "card": 12}, "card is a number 0-9"),
        (flying, {"kind": "drone-event", "t": 1.0, "event": "spin"}, "not 'spin'"),
        (flying, {"kind": "button", "t": None, "button": "start"}, "needs a time"),
        (flying, {"kind": "button", "t": 1.0, "button": "undo"}, "table's Undo"),
    ]
    for state, observation, reason in cases:
        with pytest.raises(IllegalAction, match=reason):
            Referee().translate(state, observation)
    referee = Referee()
    referee.translate(flying, {"kind": "drone-clock", "t": 5.0, "mass_g": 0.0})
    with pytest.raises(IllegalAction, match="time order"):
        referee.translate(flying, {"kind": "drone-event", "t": 4.0, "event": "lift"})
    assert referee.translate(flying, {"kind": "telemetry", "mass_g": 3.0}) == []
    assert referee.translate(speculating, {"kind": "drone-event", "t": 6.0, "event": "load",
                                           "mass_g": 3.0}) == []  # between rounds: noted


def test_undo_takes_back_a_held_landing_in_the_same_call() -> None:
    events, positions = circuit([1])
    items = observations(events, positions, [{"t": 3.4, "button": "undo"}])
    actions, state = live_run(finished(items))
    assert actions == [{"type": "load"}] == translate(events, positions,
                                                      [{"t": 3.4, "button": "undo"}]).actions
    assert state.data["reached"] == 0


def test_the_station_finds_the_live_referee() -> None:
    from rules.games.pick_n_packers.referee import GAME, Referee
    from station.live.translators import TableTranslator

    assert GAME == "pick-n-packers"
    assert isinstance(TableTranslator(GAME).inner, Referee)


def test_a_fault_read_ahead_of_earlier_events_covers_only_its_own_span() -> None:
    """The station hands a fault (and its clearing) on at once, its events once settled:
    a load from before the fault still counts, one inside it does not, one after it does."""
    from rules import IllegalAction
    from rules.games.pick_n_packers.referee import Referee

    referee, state = Referee(), engine_round([])
    fault = {"kind": "drone-event", "t": 10.0, "event": "fault", "sensor": "load-cell",
             "reason": "reading frozen at 14.210 g for 1.0 s"}
    with pytest.raises(IllegalAction, match="drone sensor fault: load-cell"):
        referee.translate(state, fault)
    assert referee.translate(state, {"kind": "drone-event", "t": 12.0, "event": "fault-cleared",
                                     "sensor": "load-cell"}) == []
    actions, _ = live_run([
        {"kind": "drone-event", "t": 9.5, "event": "load", "mass_g": 10.0},  # before: ruled
        {"kind": "drone-event", "t": 10.5, "event": "drop", "mass_g": 0.0},  # inside: not
        {"kind": "drone-event", "t": 12.5, "event": "drop", "mass_g": 0.0},  # after: ruled
    ], referee, state)
    assert actions == [{"type": "load"}, {"type": "fall"}]
    (note,) = referee.notes
    assert note["t"] == 10.5 and note["reason"].startswith("drone sensor fault (load-cell)")


def test_a_sensor_faulty_again_before_its_first_clearing_is_read_stays_faulty() -> None:
    from rules import IllegalAction
    from rules.games.pick_n_packers.referee import Referee

    referee, state = Referee(), engine_round([])
    for t, event in [(10.0, "fault"), (11.0, "fault-cleared"), (11.6, "fault")]:
        observation = {"kind": "drone-event", "t": t, "event": event, "sensor": "load-cell",
                       "reason": "reading frozen"}
        if event == "fault":
            with pytest.raises(IllegalAction):
                referee.translate(state, observation)
        else:
            referee.translate(state, observation)
    actions, _ = live_run([
        {"kind": "drone-event", "t": 10.5, "event": "load", "mass_g": 10.0},  # inside the 1st
        {"kind": "drone-event", "t": 12.0, "event": "load", "mass_g": 10.0},  # inside the 2nd
    ], referee, state)
    assert actions == []
    assert [note["reason"].split(":")[0] for note in referee.notes] == [
        "drone sensor fault (load-cell)"] * 2
