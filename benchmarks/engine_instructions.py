"""Instructions per seeded random game, per game: a speed figure the machine's load cannot move.

Run: .venv/bin/python benchmarks/engine_instructions.py [--against OLD_CHECKOUT]

Each game's seeded random games (``rules.simulation.random_game``, seeds 0, 1, ...) run
under valgrind's callgrind, which counts the instructions executed: the same count
for the same code and inputs whatever else the machine is doing, unlike a timing on
a shared machine. A run with no game is subtracted (interpreter start and imports,
the game modules the registry loads included), so the figure is instructions per
game. ``--against`` runs the same workload on another checkout (e.g. ``git worktree
add /tmp/old COMMIT``) and prints the change, which is how a change's cost to seeded
play is measured. Needs ``valgrind`` (Debian's package); about a minute per checkout.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
WORKLOADS = (("small-warehouse", 2, 20), ("moving-day", 2, 10), ("removal", 3, 4),
             ("pick-n-packers", 4, 40))
# The game is looked up before the loop so that the no-game run also imports (and, under
# PYTHONDONTWRITEBYTECODE, compiles) every game module: the registry does that lazily, on
# the first lookup, and its cost is not play.
PLAY = ("import sys\nfrom rules.simulation import random_game\n"
        "from rules.registry import get_game\n"
        "game, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])\n"
        "get_game(game)\n"
        "for seed in range(games):\n"
        "    random_game(game, [f'P{i + 1}' for i in range(players)], seed=seed)\n")


def instructions(checkout: Path, game: str, players: int, games: int) -> int:
    """Instructions executed by ``games`` seeded random games of ``game`` in ``checkout``."""
    # a fixed hash seed: set and dict orders, and so the count, the same run after run
    environment = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, "-c", PLAY, game, str(players), str(games)]
    finished = subprocess.run(command, env=environment, cwd=checkout, capture_output=True,
                              text=True, check=True)
    found = re.search(r"Collected : (\d+)", finished.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count for {game}: {finished.stderr[-300:]}")
    return int(found.group(1))


def per_game(checkout: Path, game: str, players: int, games: int) -> float:
    return (instructions(checkout, game, players, games)
            - instructions(checkout, game, players, 0)) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    arguments = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    print(f"{'game':<16} {'players':>7} {'instructions/game':>18}"
          + (f" {'before':>14} {'change':>8}" if arguments.against else ""))
    for game, players, games in WORKLOADS:
        now = per_game(HERE, game, players, games)
        line = f"{game:<16} {players:>7} {now:>18,.0f}"
        if arguments.against:
            before = per_game(arguments.against.resolve(), game, players, games)
            line += f" {before:>14,.0f} {(now / before - 1) * 100:>+7.1f}%"
        print(line, flush=True)


if __name__ == "__main__":
    main()
