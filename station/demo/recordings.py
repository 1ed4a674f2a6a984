"""Recorded games for ``packref demo``: seeded random games played through the engines.

Each recording is what a table would have seen: one declared observation per
action, at a steady pace, with now and then a stale action (something that
was legal a moment ago) that the engine refuses and a referee then accepts.

Each game's recordings ship inside its station package (``recordings/`` in the
package that defines its record in :mod:`station.games`, package data read through
:mod:`importlib.resources`), so an installed wheel plays the same demo as a
checkout. A registered game without a recording is an error
(:class:`MissingRecording`), never a quietly made-up game.

Make the declared ``NAME.jsonl`` files again, each in its game's ``recordings/``, with::

    python -m station.demo.recordings

(or ``python -m station.demo.recordings DIR``: all of them into one folder).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from rules import Action, IllegalAction, State, game_names, get_game
from station.demo.camera_fixtures import SCRIPT_SUFFIX, camera_recording
from station.demo.folders import MissingRecording, recordings_dir
from station.games import DemoWiring, game_record
from station.live.drone import drone_recording
from station.live.sources import Recording, Timed

PLAYER_NAMES = ["Ana", "Ben", "Cas", "Dee", "Eli", "Fay"]
STEP_SECONDS = 0.8
STALE_CHANCE = 0.04
MAX_ITEMS = 2000

__all__ = ["MissingRecording", "demo_recordings", "recordings_dir"]
def demo_players(game_name: str) -> list[str]:
    """Three players, or as close to three as the game allows."""
    game = get_game(game_name)
    count = min(max(3, game.min_players), game.max_players)
    return PLAYER_NAMES[:count]


def _declared(t: float, action: Action) -> Timed:
    return Timed(t, {"kind": "declared", "action": action}, "declared")


def _stale_action(state: State, seen: list[Action], rng: random.Random) -> Action | None:
    """An action seen legal earlier that the engine refuses now, if there is one."""
    for action in rng.sample(seen, min(len(seen), 5)):
        try:
            state.clone().apply(action)
        except IllegalAction:
            return action
    return None


def _any(state: State, actions: list[Action], rng: random.Random) -> Action:
    return rng.choice(actions)


def _demo(game_name: str) -> DemoWiring:
    """How the game's record plays a demo game (any legal action, no readings, by default)."""
    record = game_record(game_name)
    return record.demo if record is not None and record.demo is not None else DemoWiring()


def record_random_game(game_name: str, seed: int, players: list[str] | None = None) -> Recording:
    """A whole random game of ``game_name`` as a recording, drawn from ``seed``."""
    players = players or demo_players(game_name)
    rng = random.Random(seed)
    state = get_game(game_name).new_game(players, seed=seed)
    recording = Recording(game_name, players, seed)
    demo = _demo(game_name)
    scale = demo.readings(random.Random(seed)) if demo.readings else None
    seen: list[Action] = []
    t = 1.0
    while not state.is_over() and len(recording.items) < MAX_ITEMS:
        actions = state.legal_actions()
        if seen and rng.random() < STALE_CHANCE:
            stale = _stale_action(state, seen, rng)
            if stale is not None:
                recording.items.append(_declared(t, stale))
                recording.items.append(Timed(round(t + 2.5, 3), None, "referee", "accept"))
                t = round(t + 3.5, 3)
        action = (demo.choose or _any)(state, actions, rng)
        round_before = state.data.get("round")
        recording.items.append(_declared(t, action))
        state.apply(action)
        reading = scale and scale.reading(t, action, state.data.get("round") != round_before)
        if reading:
            recording.items.append(Timed(*reading, "drone"))
        seen = (seen + actions)[-40:]
        t = round(t + STEP_SECONDS, 3)
    recording.final_scores = {score.player: score.total for score in state.scores()}
    return recording


def demo_recordings(directory: Path | None = None,
                    data_dir: Path | None = None) -> list[Recording]:
    """One recording per registered game, from ``directory`` (default: each game's
    :func:`recordings_dir`).

    With ``data_dir``, a camera script (``NAME.camera.json``: a seeded game whose
    frames are rendered into ``data_dir/camera/NAME`` and read by the camera
    source, see :mod:`station.demo.camera_fixtures`) comes first. A drone demo
    (``NAME.drone.json``: committed serial captures played through the link
    replay, the live detector and the game's live referee, see
    :func:`station.live.drone.drone_recording`) comes before a declared ``NAME.jsonl``.
    A game with none of these raises :class:`MissingRecording`.
    """
    recordings = []
    for name in game_names():
        folder = recordings_dir(name) if directory is None else directory
        drone, path = folder / f"{name}.drone.json", folder / f"{name}.jsonl"
        camera = folder / f"{name}{SCRIPT_SUFFIX}"
        if data_dir is not None and camera.exists():
            recordings.append(camera_recording(camera, data_dir))
        elif drone.exists():
            recordings.append(drone_recording(drone))
        elif path.exists():
            recordings.append(Recording.read(path))
        else:
            raise MissingRecording(f"{path}: no demo recording of {name} (write it with "
                                   f"python -m station.demo.recordings)")
    return recordings


def main() -> None:
    parser = argparse.ArgumentParser(description="Write one demo recording per registered game.")
    parser.add_argument("directory", type=Path, nargs="?",
                        help="one folder for them all (default: each game's recordings/)")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    for name in game_names():
        folder = arguments.directory or recordings_dir(name)
        folder.mkdir(parents=True, exist_ok=True)
        recording = record_random_game(name, arguments.seed)
        path = folder / f"{name}.jsonl"
        recording.write(path)
        print(f"{path}: {len(recording.items)} items")


if __name__ == "__main__":
    main()
