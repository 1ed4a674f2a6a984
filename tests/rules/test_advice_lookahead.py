"""The Monte Carlo advisor: legal advice for every game, never a peek at a seed."""

from __future__ import annotations

import random

import pytest

from rules import game_names, get_game
from rules.advice.knowledge import (
    deal_face_down,
    fresh_copy,
    has_chance_api,
    information_set,
    public_document,
    reveal_pending,
)
from rules.advice.lookahead import Advisor, AdvisorPolicy, NothingToAdvise, sure_actions
from rules.advice.policies import POLICY_NAMES, UnknownPolicy, make_policy
from rules.games.small_warehouse import score_warehouse
from rules.games.small_warehouse.advice import WarehouseEvaluator, warehouse_value
from rules.games.small_warehouse.grid import _lay, _oriented_cells
from rules.playout import random_step


def midgame(name: str, seed: int = 3, steps: int = 4):
    game = get_game(name)
    state = game.new_game([f"P{index}" for index in range(game.min_players)], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(random_step(state, rng))
    return state


@pytest.mark.parametrize("name", game_names())
def test_advice_is_legal_and_its_chances_add_up(name: str) -> None:
    state = midgame(name)
    advice = Advisor(name).advise(state, random.Random(1), max_playouts=6)
    answer = advice.to_json(state.players)
    assert answer["player"] == state.players[state.current_player()]
    assert 1 <= len(answer["actions"]) <= 3 and answer["playouts"] == 6
    assert set(answer["win_chances"]) == set(state.players)
    assert sum(answer["win_chances"].values()) == pytest.approx(1.0, abs=1e-3)
    for entry in answer["actions"]:
        trial = state.clone()
        trial.apply(entry["action"])  # legal in the real game
    assert answer["determinized"] == has_chance_api(state)


@pytest.mark.parametrize("name", game_names())
def test_the_stop_callback_ends_the_search(name: str) -> None:
    calls = iter(range(1_000_000))
    advice = Advisor(name).advise(midgame(name), random.Random(2), stop=lambda: next(calls) >= 3)
    assert advice.playouts <= 3


def test_advice_on_a_finished_game_is_refused() -> None:
    state = midgame("pick-n-packers", steps=0)
    while not state.is_over():
        state.apply(random_step(state, random.Random(0)))
    with pytest.raises(NothingToAdvise):
        Advisor("pick-n-packers").advise(state, random.Random(0), max_playouts=2)


def test_information_set_hides_the_other_hand_and_the_order() -> None:
    state = midgame("small-warehouse", steps=2)
    player = state.current_player()
    known = information_set(state, player)
    assert known.deal == "table"
    assert known.data["hands"][player] == state.data["hands"][player]
    assert known.data["hands"][1 - player] == [None]
    reveal_pending(known, random.Random(4))
    assert None not in known.data["hands"][1 - player]
    assert not known.chance_outcomes()


def _shuffled_unseen(seed: int) -> tuple[dict, dict]:
    """Two fresh Small Warehouse games the first player cannot tell apart: the second has
    the opponent's hand card and the draw pile's order changed."""
    first = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=seed).to_json()
    second = first | {"setup": dict(first["setup"])}
    pile = list(reversed(first["setup"]["draw_pile"]))
    hands = [list(hand) for hand in first["setup"]["hands"]]
    hands[1][0], pile[0] = pile[0], hands[1][0]
    second["setup"].update(draw_pile=pile, hands=hands)
    return first, second


@pytest.mark.parametrize("seed", [1, 2])
def test_advice_never_depends_on_what_is_unseen(seed: int) -> None:
    game = get_game("small-warehouse")
    first, second = (game.replay(document) for document in _shuffled_unseen(seed))
    assert first.data["hands"][1] != second.data["hands"][1]
    assert first.public_view() == second.public_view()
    answers = [Advisor(game.name).advise(state, random.Random(9), max_playouts=12)
               .to_json(state.players) for state in (first, second)]
    assert answers[0] == answers[1]


def test_warehouse_evaluator_matches_the_scoring_rules() -> None:
    state = midgame("small-warehouse", steps=6)
    actions = random.Random(5).sample(state.legal_actions(), 40)
    grid = state.data["grids"][state.current_player()]
    expected = []
    for action in actions:
        cells = _oriented_cells(tuple(state.setup["cards"][action["card"]]), action["rotation"])
        after = _lay(grid, cells, action["row"], action["col"])
        score = score_warehouse(after)
        near = sum(kind.biggest for kind in score.kinds.values() if kind.biggest == 3)
        expected.append(score.total - 0.01 * score.empty_boxes + 0.5 * near)
        assert warehouse_value(after) == pytest.approx(expected[-1])
    assert WarehouseEvaluator().values_after(state, actions) == pytest.approx(expected)


@pytest.mark.parametrize("name", POLICY_NAMES)
def test_every_policy_plays_a_whole_game(name: str) -> None:
    state = midgame("small-warehouse", steps=0)
    rng = random.Random(3)
    policy = make_policy(name, state.game.name)
    if isinstance(policy, AdvisorPolicy):
        policy.max_playouts = 8
    while not state.is_over():
        state.apply(policy.choose(state, rng))
    assert state.winners()


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(UnknownPolicy):
        make_policy("clever", "small-warehouse")



def test_without_playouts_the_chances_are_unknown_not_zero() -> None:
    state = midgame("small-warehouse")
    advice = Advisor(state.game.name).advise(state, random.Random(1), stop=lambda: True)
    answer = advice.to_json(state.players)
    assert answer["playouts"] == 0 and answer["win_chances"] is None
    assert answer["actions"] and all(entry["win_chances"] is None for entry in answer["actions"])


@pytest.mark.parametrize("name", game_names())
def test_advice_never_reads_the_seeded_order(name: str) -> None:
    """The same position with every seeded order in its setup changed gets the same advice."""
    import json

    state = midgame(name, steps=6)
    document = state.to_json()
    table_setup = state.game.make_table_setup(list(state.players), dict(state.options), None)
    changed = json.loads(json.dumps(document))
    orders = [key for key, value in document["setup"].items()
              if isinstance(value, list) and len(value) > 1 and table_setup.get(key) != value]
    assert orders, "a seeded setup holds at least one order"
    for key in orders:
        changed["setup"][key] = list(reversed(document["setup"][key]))
    other = state.game.from_json(changed)
    answers = [Advisor(name).advise(game_state, random.Random(9), max_playouts=8)
               .to_json(game_state.players) for game_state in (state, other)]
    assert answers[0] == answers[1]


def _speculated(second_card: int) -> object:
    """A 5-player Pick 'n Packers game in which two speculators have laid their cards face
    down (the first a 3, the second ``second_card``) and the third is to choose."""
    state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cy", "Dee", "Eve"], seed=6)
    state.apply({"type": "speculate", "card": 3})
    state.apply({"type": "speculate", "card": second_card})
    return state


def test_face_down_speculation_cards_are_never_read() -> None:
    first, second = _speculated(7), _speculated(8)
    assert first.data["speculations"] != second.data["speculations"]
    assert first.public_view() == second.public_view()
    assert information_set(first, first.current_player()).data["speculations"] == {
        "Cy": None, "Dee": None}
    answers = [Advisor("pick-n-packers").advise(state, random.Random(4), max_playouts=30)
               .to_json(state.players) for state in (first, second)]
    assert answers[0] == answers[1]
    assert answers[0]["playouts"] == 30


def test_a_guess_of_face_down_cards_keeps_them_all_different() -> None:
    known = information_set(_speculated(7), None)
    for seed in range(20):
        guessed = fresh_copy(known)
        deal_face_down(guessed, random.Random(seed))
        cards = list(guessed.data["speculations"].values())
        assert None not in cards and len(set(cards)) == 2


def test_advice_names_no_card_the_table_has_not_seen() -> None:
    """From what the table sees a Small Warehouse hand is unknown: only the supply's cards
    are advised, and the same whatever the hands and the draw pile hold."""
    game = get_game("small-warehouse")
    documents = [public_document(game.replay(document)) for document in _shuffled_unseen(5)]
    assert documents[0] == documents[1]
    known = game.from_json(documents[0])
    assert known.data["hands"] == [[None], [None]] and "draw_pile" not in known.setup
    answer = Advisor(game.name).advise(known, random.Random(2), max_playouts=9) \
        .to_json(known.players)
    assert {entry["action"]["source"] for entry in answer["actions"]} == {"supply"}
    real = game.replay(_shuffled_unseen(5)[0])
    for entry in answer["actions"]:
        real.clone().apply(entry["action"])  # legal at the real table
    assert sure_actions(known) and all(action["source"] == "supply"
                                       for action in sure_actions(known))


@pytest.mark.parametrize("name", game_names())
def test_the_public_document_is_a_game_to_advise(name: str) -> None:
    state = midgame(name, steps=5)
    known = state.game.from_json(public_document(state))
    assert known.deal == "table" and known.log == []
    answer = Advisor(name).advise(known, random.Random(1), max_playouts=4).to_json(known.players)
    assert answer["playouts"] == 4
    for entry in answer["actions"]:
        state.clone().apply(entry["action"])


def test_min_playouts_are_played_before_the_stop_is_asked() -> None:
    state = midgame("small-warehouse")
    advice = Advisor(state.game.name).advise(state, random.Random(1), stop=lambda: True,
                                             min_playouts=5)
    assert advice.playouts == 5 and advice.to_json(state.players)["win_chances"] is not None


@pytest.mark.parametrize("name", game_names())
def test_the_win_chances_rest_on_the_playouts_from_the_position_itself(name: str) -> None:
    """Every other playout takes no candidate: its wins, and only its, are the chances
    (a candidate's own rate is kept beside its action for the hints)."""
    state = midgame(name, steps=5)
    advice = Advisor(name).advise(state, random.Random(2), max_playouts=20)
    answer = advice.to_json(state.players)
    assert answer["playouts"] == 20
    if advice.player is None:  # a draw is awaited: nothing to rank, all the position's
        assert answer["position_playouts"] == 20 and answer["actions"] == []
    else:
        assert answer["position_playouts"] == 10
        assert sum(candidate.playouts for candidate in advice.actions) == 10
    shares = [win / advice.position.playouts for win in advice.position.wins]
    assert list(answer["win_chances"].values()) == [round(share, 4) for share in shares]
    assert sum(answer["win_chances"].values()) == pytest.approx(1.0, abs=1e-3)


def test_at_a_chance_node_every_playout_is_the_positions() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=1, deal="table")
    assert state.is_chance()
    advice = Advisor("small-warehouse").advise(state, random.Random(1), max_playouts=6)
    assert advice.actions == [] and advice.position.playouts == 6
