"""Whole hand-dealt Small Warehouse games played in front of the camera, nobody stepping in.

Run: .venv/bin/python benchmarks/vision_games.py [--seeds 0:20] [--modes plain,real]
     .venv/bin/python benchmarks/vision_games.py --seeds 0:2 --placements 4   # a quick look

Each game is a seeded engine game played at random (the truth), rendered by the
photoshoot image model (``devkit/vision/photoshoot``, written apart from the
reader) as people play — each state held 3–6 frames, the next card held still
just above the mat for 1–2 frames, a hand lingering over it 1–3 frames, and in
real mode a lamp's glint at a cell's edge in 40 % of the games — and refereed by
a fresh station from that replay through ``station.live.camera.attach`` (what
``packref serve --camera TABLE=FOLDER`` runs), dealt by hand: the station knows no
card before the camera sees it (``devkit/station/camera_games.py``).

A game is **right** when the station ends with the truth's warehouses and
scores, every placement applied, and no flag raised. A game where a glare
washes out a card in every still frame (the truth's ``occluded``: more than half
its cells) is **unseen**: no camera could referee it alone; those are counted
apart. Per game: the verdict, flags, frames and seconds; then the totals and the
reference workload (benchmarks/reference.py), time also in reference units.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from reference import reference_line, reference_seconds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout first: benchmarks/vision.py would shadow vision/

from devkit.station.camera_games import CameraGame, play_small_warehouse  # noqa: E402


def seed_range(text: str) -> range:
    low, _, high = text.partition(":")
    return range(int(low), int(high or int(low) + 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=seed_range, default=seed_range("0:20"))
    parser.add_argument("--modes", default="plain,real")
    parser.add_argument("--placements", type=int, default=None,
                        help="stop each game after so many placements (default: whole games)")
    args = parser.parse_args()
    reference = reference_seconds()
    print(reference_line(), flush=True)
    for mode in args.modes.split(","):
        games: list[CameraGame] = []
        started = time.perf_counter()
        for seed in args.seeds:
            begun = time.perf_counter()
            game = play_small_warehouse(seed, mode, args.placements)
            games.append(game)
            print(f"{mode} seed {seed}: {game!r} {game.frames} frames "
                  f"{time.perf_counter() - begun:.0f} s", flush=True)
            for flag in game.flags:
                print(f"    flag: {flag}", flush=True)
        report(mode, games, time.perf_counter() - started, reference)
    return 0


def report(mode: str, games: list[CameraGame], seconds: float, reference: float) -> None:
    seen = [game for game in games if game.seeable]
    right = sum(game.right for game in seen)
    flags = sum(len(game.flags) for game in seen)
    print(f"{mode}: {right}/{len(seen)} games the camera can see refereed right, "
          f"{flags} flags in them; {len(games) - len(seen)} of {len(games)} with a card "
          f"a glare hides ({sum(game.right for game in games) - right} of those right anyway); "
          f"{seconds / max(1, len(games)):.0f} s a game (render and referee) = "
          f"{seconds / max(1, len(games)) / reference:.0f} reference units", flush=True)


if __name__ == "__main__":
    sys.exit(main())
