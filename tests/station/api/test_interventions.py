"""A random check that the referee keeps its word when a person steps in.

Hand-dealt games of Moving Day and Removal are played through the station's
HTTP API (``intervening``: the truth is a seeded game of the engine whose moves
are picked at random; the table shows the station only what a camera, the
picker and a person would), and in a turn picked at random a person steps in:

- a wrong entry (a wrong ``helper_vehicle``, wrong Removal ``helpers``),
  withdrawn, then the right one;
- a placement the rules forbid (flagged), then the true move as a correction of
  that flag, then the camera sees the true placement;
- the move undone, then made again (the same reading, a correction, or a
  ``replace`` correction of the last step);
- a placement the rules forbid, its refusal accepted, the table back as it was,
  then the true move.

Every step is checked against the engine's own replay of what truly happened:
0 false flags, 0 wrong states (and 0 answers against the API's word) over 200
games. The camera's asks (a helper's vehicle it cannot see, a group it cannot
tell) are not false flags when the readings truly differ: the true one is
picked, and they are counted apart. ``pytest -s`` prints the figures of each
chunk of ten games.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.station.api.intervening import Figures, MovingDayPlay, RemovalPlay, removal_copy

CHUNKS = 10
GAMES = 10  # a chunk: ten games (xdist spreads the chunks)


def moving_day(client: TestClient, figures: Figures, seed: int) -> None:
    players = ["Ana", "Ben", "Cas"][:3 if seed % 5 == 4 else 2]
    rounds = 1 if len(players) == 3 else 2  # "rounds": a shorter game, every rule in play
    MovingDayPlay(client, figures, f"md-{seed}", players, seed, {"rounds": rounds}).play()


def removal(client: TestClient, figures: Figures, seed: int) -> None:
    players = ["Ana", "Ben", "Cas"][:3 if seed % 5 == 4 else 2]
    RemovalPlay(client, figures, f"rm-{seed}", players, seed, {"keepsakes": seed % 2 == 0},
                removal_copy()).play()


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("game", [moving_day, removal], ids=["moving-day", "removal"])
def test_the_referee_keeps_its_word_when_a_person_steps_in(client: TestClient, game: object,
                                                          chunk: int) -> None:
    figures = Figures()
    for seed in range(chunk * GAMES, (chunk + 1) * GAMES):
        game(client, figures, seed)  # type: ignore[operator]
    name = game.__name__.replace("_", "-")  # type: ignore[attr-defined]
    print("\n" + figures.line(f"{name} games {chunk * GAMES}-{(chunk + 1) * GAMES - 1}"))
    for kind in ("false_flags", "wrong_states", "wrong_answers"):
        for text in getattr(figures, kind)[:5]:
            print(f"  {kind.replace('_', ' ')[:-1]}: {text}")
    assert figures.games == GAMES
    assert figures.false_flags == [], figures.false_flags[:5]
    assert figures.wrong_states == [], figures.wrong_states[:5]
    assert figures.wrong_answers == [], figures.wrong_answers[:5]
