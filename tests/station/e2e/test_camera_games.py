"""Whole hand-dealt Small Warehouse games in front of the camera, nobody stepping in.

Photos from the photoshoot image model (written apart from the reader), paced as people
play — states held 3–6 frames, a card held just above the mat before it is laid, a hand
lingering on it — through ``station.live.camera.attach`` (what ``packref serve --camera``
runs) to a station that knows no card before the camera sees it. Short games here; whole
games over many seeds in ``benchmarks/vision_games.py``.
"""

from __future__ import annotations

import pytest

from devkit.station.camera_games import play_small_warehouse


@pytest.mark.parametrize(("seed", "mode"), [(3, "plain"), (11, "real")])
def test_a_game_played_in_front_of_the_camera_is_refereed_right_without_a_person(
        seed: int, mode: str) -> None:
    game = play_small_warehouse(seed, mode, placements=3)
    assert game.seeable  # no glare washes a card out in every still frame
    assert game.flags == []
    assert game.right, game
