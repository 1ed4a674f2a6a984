"""``station.advice``: the worker entry point beside the live loop."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from rules import get_game
from station.advice import advise_state, deadline_stop
from station.errors import InputError


def test_deadline_stop_follows_its_clock() -> None:
    now = [10.0]
    stop = deadline_stop(2.0, clock=lambda: now[0])
    assert not stop()
    now[0] = 11.9
    assert not stop()
    now[0] = 12.0
    assert stop()


def test_advice_runs_in_a_worker_process() -> None:
    document = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=4).to_json()
    pickle.dumps(advise_state)  # a worker can be handed it by name
    with ProcessPoolExecutor(max_workers=1) as pool:
        answer = pool.submit(advise_state, document, 0.3).result(timeout=120)
    assert answer["player"] == "Ana" and answer["actions"]
    state = get_game("small-warehouse").from_json(document)
    state.apply(answer["actions"][0]["action"])


def test_bad_documents_and_budgets_are_input_errors() -> None:
    document = get_game("pick-n-packers").new_game(["A", "B", "C"], seed=1).to_json()
    with pytest.raises(InputError, match=r"^--seconds:"):
        advise_state(document, seconds=0)
    with pytest.raises(InputError, match=r"^\$\.game:"):
        advise_state(document, 0.1, game_name="removal")
    with pytest.raises(InputError, match=r"^\$\.players:"):
        advise_state({**document, "players": "A"}, 0.1)
