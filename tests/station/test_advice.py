"""``station.advice``: the worker entry point beside the live loop."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from rules import get_game
from station.advice import (
    CREDIBLE_WIDTH,
    advise_state,
    credible_chances,
    deadline_stop,
    wilson_interval,
)
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


# -- when a win chance may be shown (docs/advisor.md, "When a chance is shown") -----------
def test_the_wilson_interval_narrows_with_playouts_and_stays_inside_0_and_1() -> None:
    widths = [wilson_interval(0.5, n)[1] - wilson_interval(0.5, n)[0] for n in (8, 40, 400)]
    assert widths == sorted(widths, reverse=True) and widths[0] > 0.5 and widths[2] < 0.1
    assert wilson_interval(0.0, 8)[0] == 0.0 and wilson_interval(1.0, 8)[1] == 1.0
    low, high = wilson_interval(1.0, 8)  # 8 of 8 is not a sure win
    assert 0.6 < low < 0.7 and high == 1.0


def test_an_estimate_is_hidden_before_the_first_move_and_while_too_uncertain() -> None:
    def answer(chance: float, playouts: int) -> dict:
        return {"win_chances": {"Ana": chance, "Ben": 1 - chance},
                "actions": [{"playouts": playouts // 16 or 1}], "playouts": playouts * 2,
                "position_playouts": playouts}

    # 8 of 8 playouts won is no sure win (18 of 18 would be shown: 82-100 %)
    assert credible_chances(answer(1.0, 8), moves=2)["shown"] is False
    assert credible_chances(answer(1.0, 18), moves=2)["shown"] is True
    assert credible_chances(answer(0.63, 8), moves=0)["why"] == "shown after the first move"
    hidden = credible_chances(answer(0.63, 20), moves=4)
    assert hidden["shown"] is False and hidden["why"] == "too uncertain yet (20 playouts)"
    shown = credible_chances(answer(0.63, 60), moves=4)  # 60 from the position itself
    assert shown["shown"] is True and shown["why"] == ""
    low, high = shown["intervals"]["Ana"]
    assert low < 0.63 < high and high - low <= CREDIBLE_WIDTH
