"""The Pick 'n Packers referee in a game dealt by hand: the shop layout and loaded presents."""

from __future__ import annotations

import doctest

import pytest

from rules import IllegalAction, get_game
from rules.games.pick_n_packers import referee as referee_module
from rules.games.pick_n_packers.referee import Referee, present_reveal, shop_reveals

GAME = get_game("pick-n-packers")
PLAYERS = ["Ana", "Ben", "Cas"]
LAYOUT = [["shop-5", "shop-0", "shop-7"], ["shop-2", "shop-8", "shop-1"],
          ["shop-4", "shop-6", "shop-3"]]


def flying(deal: str = "table"):
    """A game in its challenge phase (Cas has speculated)."""
    state = GAME.new_game(PLAYERS, seed=3, deal=deal)
    state.apply({"type": "speculate", "card": 4})
    return state


def reading(hidden=(), **changed) -> dict:
    cards = [[None if (row, col) in hidden else LAYOUT[row][col] for col in range(3)]
             for row in range(3)]
    for cell, card in changed.items():
        cards[int(cell[1])][int(cell[2])] = card
    return {"kind": "shop", "found": True, "cards": cards}


def load(t: float, mass: float) -> dict:
    return {"kind": "drone-event", "t": t, "event": "load", "mass_g": mass}


def test_the_referee_examples_run() -> None:
    assert doctest.testmod(referee_module).failed == 0


def test_a_shop_reading_reveals_each_card_read_in_an_empty_cell() -> None:
    state = GAME.new_game(PLAYERS, deal="table")
    reveals = Referee().translate(state, reading(hidden=[(0, 1), (2, 2)]))
    assert reveals == [{"type": "reveal", "zone": "shop", "row": row, "col": col,
                        "card": LAYOUT[row][col]}
                       for row in range(3) for col in range(3) if (row, col) not in [(0, 1),
                                                                                    (2, 2)]]
    for reveal in reveals:
        state.apply(reveal)
    assert Referee().translate(state, reading(hidden=[(0, 1), (2, 2)])) == []  # seen already
    last_but_one = Referee().translate(state, reading(hidden=[(0, 1)]))
    assert last_but_one == [  # shop-3 read; shop-0 can only lie in the one empty cell
        {"type": "reveal", "zone": "shop", "row": 2, "col": 2, "card": "shop-3"},
        {"type": "reveal", "zone": "shop", "row": 0, "col": 1, "card": "shop-0"}]


def test_misreads_of_the_shop_are_noted_and_ignored() -> None:
    state = GAME.new_game(PLAYERS, deal="table")
    state.apply({"type": "reveal", "zone": "shop", "row": 0, "col": 0, "card": "shop-5"})
    referee = Referee()
    only = {(row, col) for row in range(3) for col in range(3)} - {(0, 0), (1, 1), (2, 2)}
    reveals = referee.translate(state, reading(hidden=only, c00="shop-1", c11="shop-5",
                                               c22="shop-9"))
    assert reveals == []
    reasons = [note["reason"] for note in referee.notes]
    assert reasons == [
        "shop-1 read at row 1, column 1, where shop-5 lies: a misread, ignored",
        "shop-5 read at row 2, column 2, but it lies at row 1, column 1: a misread, ignored",
        "'shop-9' is not a shop card of this copy: ignored"]
    twice = reading(hidden=only, c11="shop-3", c22="shop-3")
    assert Referee().translate(state, twice) == []


def test_a_shop_reading_reveals_nothing_in_a_seeded_game_or_when_the_mat_is_not_found() -> None:
    assert Referee().translate(flying("seed"), reading(c00="shop-1")) == []
    table = GAME.new_game(PLAYERS, deal="table")
    assert Referee().translate(table, {"kind": "shop", "found": False}) == []


@pytest.mark.parametrize("cards", [None, [["shop-1"]], [[1, None, None]] * 3, "shop-1"])
def test_a_malformed_shop_reading_is_refused(cards) -> None:
    with pytest.raises(IllegalAction, match="3 rows of 3"):
        Referee().translate(GAME.new_game(PLAYERS, deal="table"),
                            {"kind": "shop", "cards": cards})


def test_a_load_whose_mass_fits_one_unseen_present_reveals_it_after_the_load() -> None:
    state = flying()
    referee = Referee()
    referee.translate(state, {"kind": "drone-clock", "t": 0.5, "mass_g": 0.1})
    actions = referee.translate(state, load(1.0, 16.4))  # 16.3 g added: wood-5 (16.5 g)
    assert actions == [{"type": "load"},
                       {"type": "reveal", "zone": "present", "shop": 0, "present": "wood-5"}]
    for action in actions:
        state.apply(action)
    assert state.loaded_presents() == ["wood-5"]


def test_a_load_that_fits_several_presents_leaves_it_unknown_and_names_them() -> None:
    state = flying()
    referee = Referee()
    referee.mass_tolerance_g = 0.6
    assert referee.translate(state, load(1.0, 3.5)) == [{"type": "load"}]
    assert referee.notes[-1]["reason"] == (
        "the present loaded on shop card 0 weighs 3.5 g: paper-2, paper-3 or paper-4; "
        "it stays unknown (it changes no score)")


def test_a_present_already_seen_is_no_candidate() -> None:
    state = flying()
    state.apply({"type": "reveal", "zone": "present", "shop": 5, "present": "paper-3"})
    state.apply({"type": "load"})
    reveal, note = present_reveal(state, {"mass_g": 3.3, "before_g": 0.0}, tolerance_g=0.3)
    assert reveal == {"type": "reveal", "zone": "present", "shop": 0, "present": "paper-2"}
    assert note is None
    state.apply(reveal)
    assert present_reveal(state, {"mass_g": 3.3}) == (None, None)  # known now


def test_a_mass_no_unseen_present_has_is_noted() -> None:
    state = flying()
    state.apply({"type": "load"})
    reveal, note = present_reveal(state, {"t": 2.0, "mass_g": 40.0, "before_g": 0.0})
    assert reveal is None and "no unseen present" in note["reason"]


def test_the_mass_before_a_load_is_the_latest_mass_carried() -> None:
    state = flying()
    state.apply({"type": "reveal", "zone": "present", "shop": 0, "present": "wood-6"})
    referee = Referee(with_positions=False)
    actions = []
    for observation in (load(1.0, 19.0),
                        {"kind": "drone-event", "t": 2.0, "event": "lift", "mass_g": 19.1},
                        {"kind": "drone-event", "t": 4.0, "event": "land", "mass_g": 19.0},
                        {"kind": "drone-clock", "t": 6.0, "mass_g": 19.0},
                        load(7.0, 21.4)):  # 2.4 g more: paper-1 (2.5 g)
        for action in referee.translate(state, observation):
            state.apply(action)
            actions.append(action)
    assert actions == [{"type": "load"}, {"type": "land", "card": 1}, {"type": "load"},
                       {"type": "reveal", "zone": "present", "shop": 1, "present": "paper-1"}]


def test_a_load_released_with_a_held_landing_reveals_the_present_of_the_new_card() -> None:
    state = flying()
    referee = Referee()
    settled = []
    for observation in (load(1.0, 9.5),  # wood-1 on "0/9"
                        {"kind": "drone-event", "t": 2.0, "event": "lift", "mass_g": 9.5},
                        {"kind": "drone-event", "t": 4.0, "event": "land", "mass_g": 9.5},
                        {"kind": "drone-position", "t": 4.2, "card": 1},
                        load(5.0, 28.5)):  # released together with the landing: wood-6
        actions = referee.translate(state, observation)
        for action in actions:
            state.apply(action)
        settled.append(actions)
    assert settled[-1] == [{"type": "land", "card": 1}, {"type": "load"},
                           {"type": "reveal", "zone": "present", "shop": 1,
                            "present": "wood-6"}]
    assert state.loaded_presents() == ["wood-1", "wood-6"]


def test_a_seeded_game_gets_no_reveal_from_the_referee() -> None:
    state = flying("seed")
    assert Referee().translate(state, load(1.0, 19.0)) == [{"type": "load"}]


def test_an_undone_load_reveals_nothing() -> None:
    state = flying()
    state.apply({"type": "load"})
    referee = Referee()
    released = []
    for observation in ({"kind": "drone-event", "t": 4.0, "event": "land", "mass_g": 9.5},
                        {"kind": "drone-position", "t": 4.1, "card": 1},
                        load(4.3, 28.5),
                        {"kind": "button", "t": 4.4, "button": "undo"},
                        {"kind": "drone-clock", "t": 6.0, "mass_g": 28.5}):
        released += referee.translate(state, observation)
    assert released == [{"type": "land", "card": 1}]


def test_shop_reveals_is_the_pure_function_behind_the_shop_reading() -> None:
    state = GAME.new_game(PLAYERS, deal="table")
    reveals, notes = shop_reveals(state, reading())
    assert len(reveals) == 9 and notes == []
