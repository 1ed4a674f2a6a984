"""Drawing views: each game record's presenter works on its engine's real states."""

from __future__ import annotations

import json
import random

import pytest

from rules import game_names, get_game
from station.games import game_record, game_records
from station.games.views import present


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
        assert [board["title"] for board in view["boards"]] == ["Ana's warehouse",
                                                                "Ben's warehouse"]
    else:
        assert set(view["drone"]) == {"reached", "face_down", "pilots"}


def test_a_speculation_card_stays_face_down_in_the_view_until_its_round_is_scored() -> None:
    state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], seed=1)
    bettor = state.players[state.current_player()]
    state.apply({"type": "speculate", "card": 7})
    view = present(state)
    assert view["drone"]["face_down"] == [bettor]
    assert "7" not in json.dumps(view)
    assert f"Speculation cards face down: {bettor}" in view["lines"]


def test_any_other_game_gets_the_grids_found_in_its_state(toy_game: str) -> None:
    state = get_game(toy_game).new_game(["Ana", "Ben"], seed=0)
    state.apply({"type": "add", "n": 2})
    view = present(state)
    assert view["boards"] == [{"title": "track", "rows": [
        [{"t": "#", "k": "#", "m": []}, {"t": "#", "k": "#", "m": []}, None, None, None],
        [None] * 5]}]
    assert "to_act: 1" in view["lines"]


def test_small_warehouse_shows_the_supply_seen_and_the_draw_pile_count_only() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table")
    for player, card in enumerate(["c01", "c02"]):
        state.apply({"type": "reveal", "zone": "warehouse", "player": player, "card": card})
    state.apply({"type": "reveal", "zone": "supply", "card": "c07"})
    state.apply({"type": "reveal", "zone": "hand", "player": 0, "card": "c09"})
    lines = present(state)["lines"]
    assert lines == ["Supply: card c07, a card not seen yet, a card not seen yet",
                     "Draw pile: 13 cards"]


def test_removal_says_storage_and_helper_cards_in_words() -> None:
    state = get_game("removal").new_game(["Ana", "Ben"], seed=4)
    store = next(a for a in state.legal_actions() if a["type"] == "store" and not a["helpers"])
    state.apply(store)
    names = {piece["id"]: piece["name"] for piece in state.setup["catalogue"]["items"]}
    assert present(state)["lines"] == [
        "Round 1", f"Ana: the {names[store['item']]} in storage · helper cards 1, 2 and 3 left",
        "Ben: storage empty · helper cards 1, 2 and 3 left"]


def test_the_drone_line_names_loaded_presents_once_seen() -> None:
    state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], deal="table")
    state.apply({"type": "speculate", "card": 3})
    state.apply({"type": "load"})
    assert "On the drone: card 0's present" in present(state)["lines"]
    state.apply({"type": "reveal", "zone": "present", "shop": 0, "present": "wood-2"})
    assert "On the drone: wood-2" in present(state)["lines"]


def test_pick_n_packers_says_the_round_and_past_rounds_in_words() -> None:
    state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], seed=4)
    pilots = " and ".join(state.data["pilots"])
    assert present(state)["lines"][0] == f"Round 1, bets being laid: {pilots} flying"
    while not state.data.get("results"):
        state.apply(state.legal_actions()[0])
    ended = present(state)["lines"][2]
    assert ended.startswith(f"Round 1: {pilots} reached shop card ")
    assert "-" not in ended.split(", ")[-1]  # the ending in words, not its code
