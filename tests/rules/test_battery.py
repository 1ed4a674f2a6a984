"""The generic battery: every registered game, random playouts, round trips, replays."""

from __future__ import annotations

import json
import random

import pytest

from rules import IllegalAction, game_names, get_game
from rules.engine import REVEAL, State
from rules.playout import play_randomly, random_step

SEEDS = range(4)


def _players(count: int) -> list[str]:
    return [f"P{index + 1}" for index in range(count)]


def _player_counts(name: str) -> list[int]:
    game = get_game(name)
    return sorted({game.min_players, game.max_players})


def _cases() -> list[tuple[str, int]]:
    return [(name, count) for name in game_names() for count in _player_counts(name)]


def _round_trip(state: State) -> State:
    return state.game.from_json(json.loads(json.dumps(state.to_json())))


def test_the_four_games_are_registered() -> None:
    assert {"small-warehouse", "moving-day", "pick-n-packers", "removal"} <= set(game_names())


@pytest.mark.parametrize(("name", "count"), _cases())
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_round_trips_and_replays(name: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    state = get_game(name).new_game(_players(count), seed=seed)
    steps = 0
    while not state.is_over():
        actions = state.legal_actions()
        assert actions, f"{state!r} has no legal action"
        assert state.current_player() is not None
        state.apply(rng.choice(actions))
        steps += 1
        if steps % 3 == 0 or state.is_over():
            assert _round_trip(state) == state
    assert state.current_player() is None
    assert state.legal_actions() == []
    assert state.game.replay(json.loads(json.dumps(state.to_json()))) == state


@pytest.mark.parametrize(("name", "count"), _cases())
def test_a_position_copy_plays_on_apart_and_as_a_fresh_build_would(name: str, count: int
                                                                   ) -> None:
    """``position_copy`` shares the setup and what the game built from it: a copy must
    play exactly as the same position built afresh, and leave the original untouched."""
    rng = random.Random(count)
    state = get_game(name).new_game(_players(count), seed=count)
    while not state.is_over():
        copy = state.position_copy()
        fresh = type(state)(state.game, list(state.players), dict(state.options),
                            state.setup, restore=state.data)
        before = json.dumps(state.data, sort_keys=True)
        for _ in range(3):  # a few moves on the copy, the same on a fresh build
            if copy.is_over():
                break
            action = rng.choice(copy.legal_actions())
            copy.apply(dict(action))
            fresh.apply(dict(action))
            assert copy.data == fresh.data
            assert copy.legal_actions() == fresh.legal_actions()
        assert [score.total for score in copy.scores()] == [
            score.total for score in fresh.scores()]
        assert json.dumps(state.data, sort_keys=True) == before
        assert state.legal_actions() == type(state)(
            state.game, list(state.players), dict(state.options), state.setup,
            restore=state.data).legal_actions()
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("name", "count"), _cases())
def test_scores_match_their_breakdown(name: str, count: int) -> None:
    for seed in SEEDS:
        state = play_randomly(get_game(name).new_game(_players(count), seed=seed),
                              random.Random(seed))
        scores = state.scores()
        assert [score.player for score in scores] == state.players
        for score in scores:
            assert score.total == sum(score.parts.values()), score
        winners = state.winners()
        assert winners and set(winners) <= set(state.players)


@pytest.mark.parametrize("name", game_names())
def test_setup_is_reproducible_from_the_seed(name: str) -> None:
    game = get_game(name)
    count = game.min_players
    assert game.new_game(_players(count), seed=11) == game.new_game(_players(count), seed=11)


@pytest.mark.parametrize("name", game_names())
def test_illegal_actions_are_refused_with_a_reason_and_change_nothing(name: str) -> None:
    state = get_game(name).new_game(_players(get_game(name).min_players), seed=3)
    before = state.to_json()
    for bogus in ({"type": "no-such-action"}, {"no": "type"}, {"type": 5}):
        with pytest.raises(IllegalAction) as raised:
            state.apply(bogus)  # type: ignore[arg-type]
        assert raised.value.reason
    assert state.to_json() == before


@pytest.mark.parametrize("name", game_names())
def test_over_game_refuses_actions(name: str) -> None:
    game = get_game(name)
    state = play_randomly(game.new_game(_players(game.min_players), seed=5), random.Random(5))
    with pytest.raises(IllegalAction, match="over"):
        state.apply({"type": "anything"})


@pytest.mark.parametrize("name", game_names())
def test_rule_notes_list_every_option_with_its_default(name: str) -> None:
    from tests.conftest import REPO

    notes = (REPO / "docs" / "rules-notes.md").read_text(encoding="utf-8")
    lines = notes.splitlines()
    for option, default in get_game(name).default_options.items():
        assert any(
            f"`{option}`" in line and json.dumps(default) in line for line in lines
        ), f"docs/rules-notes.md: no line names {name}'s option {option} with its default"


# -- chance: games dealt by hand ------------------------------------------------------
def _deal_by_hand_like(seeded: State) -> State:
    """The game ``seeded`` plays, dealt by hand: the seed's outcomes entered as reveals."""
    table = seeded.game.new_game(seeded.players, options=seeded.options, deal="table")
    reveals = list(seeded.seed_reveals)
    for step, action in enumerate([*seeded.log, None]):
        while reveals and reveals[0][0] == step:
            table.apply(dict(reveals.pop(0)[1]))
        if action is not None:
            table.apply(dict(action))
    return table


@pytest.mark.parametrize(("name", "count"), _cases())
@pytest.mark.parametrize("seed", SEEDS)
def test_hand_dealt_playout_round_trips_and_replays(name: str, count: int, seed: int) -> None:
    rng = random.Random(1000 + seed)  # the playout's own generator: the engine has no seed
    state = get_game(name).new_game(_players(count), deal="table")
    assert state.deal == "table"
    steps = 0
    while not state.is_over():
        step = random_step(state, rng)
        state.apply(step)
        steps += 1
        if steps % 3 == 0 or state.is_over():
            assert _round_trip(state) == state
    assert any(action["type"] == REVEAL for action in state.log)
    assert state.game.replay(json.loads(json.dumps(state.to_json()))) == state
    for score in state.scores():
        assert score.total == sum(score.parts.values()), score


@pytest.mark.parametrize(("name", "count"), _cases())
@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_game_and_the_same_game_dealt_by_hand_agree(name: str, count: int,
                                                           seed: int) -> None:
    seeded = play_randomly(get_game(name).new_game(_players(count), seed=seed),
                           random.Random(seed))
    assert all(action["type"] != REVEAL for action in seeded.log)  # seeded logs as before
    table = _deal_by_hand_like(seeded)
    assert table.data == seeded.data
    assert table.public_view() == seeded.public_view()
    assert table.is_over()
    assert table.scores() == seeded.scores()
    assert table.winners() == seeded.winners()


@pytest.mark.parametrize("name", game_names())
def test_a_reveal_that_is_no_legal_outcome_is_refused_and_changes_nothing(name: str) -> None:
    game = get_game(name)
    state = game.new_game(_players(game.min_players), deal="table")
    outcomes = state.chance_outcomes()
    assert outcomes, "a game dealt by hand starts with something to reveal"
    for outcome in outcomes:
        assert outcome.count >= 1 and outcome.action["type"] == REVEAL
    state.apply(dict(outcomes[0].action))
    before = state.to_json()
    for bogus in (dict(outcomes[0].action), {"type": REVEAL, "component": "no-such-thing"}):
        if any(outcome.action == bogus for outcome in state.chance_outcomes()):
            continue  # several copies of that component: revealing it again is legal
        with pytest.raises(IllegalAction) as raised:
            state.apply(bogus)
        assert raised.value.reason
    assert state.to_json() == before


@pytest.mark.parametrize("name", game_names())
def test_unseen_components_cover_the_outcomes(name: str) -> None:
    game = get_game(name)
    state = game.new_game(_players(game.min_players), deal="table")
    unseen = state.unseen()
    assert unseen and all(count >= 1 for count in unseen.values())
    assert sum(outcome.count for outcome in state.chance_outcomes()) >= 1
