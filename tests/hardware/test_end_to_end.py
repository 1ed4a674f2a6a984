"""Sensors to scores: simulated challenge -> detector -> referee -> engine."""

from __future__ import annotations

import pytest

from hardware.events import detect_events
from hardware.simulate import simulate_challenge
from rules.games.pick_n_packers.referee import translate


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_simulated_challenge_is_refereed_into_the_engine(seed: int) -> None:
    games = pytest.importorskip("rules.games.pick_n_packers")
    from rules import get_game

    run = simulate_challenge(seed)
    landings = [event for event in run.truth if event["event"] == "land"]
    positions = [{"t": event["t"] + 0.3, "card": (number + 1) % 9}
                 for number, event in enumerate(landings)]  # the camera sees each right card
    events = [event.to_json() for event in detect_events(run.samples)]
    result = translate(events, positions)
    true_result = translate(run.truth, positions)
    assert result.actions == true_result.actions
    state = get_game(games.GAME_NAME).new_game(["Ana", "Ben", "Cas"], seed=seed)
    state.apply({"type": "speculate", "card": 3})
    for action in result.actions:
        state.apply(action)
    assert state.data["results"][0]["reached"] == result.reached
