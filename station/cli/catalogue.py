"""``packref catalogue learn|edit|check``: teach packref a physical copy (docs/formats.md §11).

``learn`` watches a camera (or a replay) while a person lays one piece at a time
on its empty mat, and writes the catalogue of what it recorded; ``edit`` asks,
in the terminal, for what the camera cannot see; ``check`` says whether the
engine can play a copy's catalogue. See ``docs/kit.md``, "Teaching packref your
copy".
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from station.errors import InputError
from station.output import emit
from vision.config import DEFAULT_CONFIG

ORDER = 48


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    from station.copies import catalogue_games

    games = catalogue_games()
    parser = subparsers.add_parser(
        "catalogue", help="teach packref your copy: learn its pieces by camera, then edit",
        description="Learn a physical copy's pieces from the camera, fill in what the camera "
        "cannot see, and check that the engine can play the result.")
    commands = parser.add_subparsers(title="catalogue commands", metavar="COMMAND",
                                     parser_class=type(parser))
    learn = commands.add_parser(
        "learn", help="record each piece laid alone and still on its empty mat",
        description="Watch a camera or replay while pieces are laid one at a time on the "
        "game's empty mat; record each once it holds still; write FILE when the source ends "
        "or on Ctrl-C. Progress goes to stderr, a one-line JSON summary to stdout.")
    learn.add_argument("game", choices=games, metavar="GAME", help=", ".join(games))
    source = learn.add_mutually_exclusive_group(required=True)
    source.add_argument("--camera", type=int, metavar="N", help="camera number (0 = first)")
    source.add_argument("--replay", metavar="PATH", help="a folder of images or a video file")
    learn.add_argument("--mats", required=True, metavar="MATS.json", help="the mats to look for")
    learn.add_argument("--out", required=True, metavar="FILE", help="the catalogue to write")
    learn.add_argument("--mat", type=int, metavar="ID",
                       help="the mat to teach on (default: the first of the game's kind)")
    learn.add_argument("--stable", type=int, default=DEFAULT_CONFIG.stable_frames, metavar="K",
                       help="frames a piece must hold still (default "
                            f"{DEFAULT_CONFIG.stable_frames})")
    learn.set_defaults(run=run_learn)
    edit = commands.add_parser(
        "edit", help="answer, piece by piece, what the camera cannot see",
        description="Ask in the terminal (stdin) for every value the camera cannot see, "
        "checking each against the engine's limits; write FILE back.")
    edit.add_argument("game", choices=games, metavar="GAME", help=", ".join(games))
    edit.add_argument("file", metavar="FILE", help="the catalogue to fill in")
    edit.add_argument("--all", action="store_true",
                      help="ask for every value, not only the missing ones")
    edit.set_defaults(run=run_edit)
    check = commands.add_parser(
        "check", help="whether the engine can play a copy's catalogue",
        description="Check every value of FILE and play the game once with it; print the "
        "pieces counted, or exit 2 with the reason.")
    check.add_argument("game", choices=games, metavar="GAME", help=", ".join(games))
    check.add_argument("file", metavar="FILE", help="the catalogue to check")
    check.add_argument("--players", type=int, help="for this many players (default: fewest)")
    check.set_defaults(run=run_check)
    parser.set_defaults(run=lambda _arguments: _missing_command(parser))


def _missing_command(parser: argparse.ArgumentParser) -> int:
    raise InputError(f"{parser.prog}: choose a command: learn, edit or check "
                     f"(see '{parser.prog} --help')")


def say(message: str) -> None:
    """One line to the person at the table (stderr: stdout carries only JSON)."""
    print(f"catalogue: {message}", file=sys.stderr, flush=True)


# -- learn -------------------------------------------------------------------------------
def _teaching_mat(specs: list[Any], game: str, chosen: int | None) -> Any:
    from station.copies import lesson_of

    kind = lesson_of(game).mat_kind
    if chosen is not None:
        spec = next((spec for spec in specs if spec.id == chosen), None)
        if spec is None:
            raise InputError(f"--mat: mat {chosen} is not in MATS.json")
        if spec.kind != kind:
            raise InputError(f"--mat: {game} is taught on a {kind} mat; mat {chosen} is "
                             f"{spec.kind}")
        return spec
    spec = next((spec for spec in specs if spec.kind == kind), None)
    if spec is None:
        raise InputError(f"--mats: {game} is taught on a {kind} mat; MATS.json has none")
    return spec


class FrameCounter:
    """Passes frames on, counting them and saying now and then that it is still watching."""

    def __init__(self, frames: Iterable[Any], every: int) -> None:
        self.frames, self.every, self.count = frames, every, 0

    def __iter__(self) -> Iterator[Any]:
        for frame in self.frames:
            self.count += 1
            if self.count % self.every == 0:
                say(f"frame {self.count}: watching")
            yield frame


def run_learn(arguments: argparse.Namespace) -> int:
    from station.catalogue.config import PROGRESS_EVERY
    from station.catalogue.files import write_atomically
    from station.cli.vision import load_reader
    from station.copies import learner as copy_learner
    from station.copies import lesson_of
    from vision.errors import SourceError
    from vision.sources import ReplaySource, open_camera
    from vision.stability import watch

    if arguments.stable < 1:
        raise InputError("--stable: must be at least 1")
    out = Path(arguments.out)
    if not out.parent.is_dir():
        raise InputError(f"--out: {out.parent}: no such folder")
    reader = load_reader(arguments.mats)
    spec = _teaching_mat(reader.specs, arguments.game, arguments.mat)
    learner = copy_learner(arguments.game, spec.id)
    try:
        source = (ReplaySource(Path(arguments.replay)) if arguments.replay is not None
                  else open_camera(arguments.camera))
    except SourceError as error:
        raise InputError(str(error)) from None
    say(f"lay each {lesson_of(arguments.game).noun} alone on mat {spec.id}, wait until it is "
        "recorded, take it away; Ctrl-C when done")
    interrupted, counter = False, FrameCounter(source, PROGRESS_EVERY)
    try:
        with source:
            for reading in watch(counter, reader, arguments.stable, keep_unknown=True):
                for note in learner.see(reading["frame"], reading["mats"]):
                    say(f"frame {note.frame}: {note.message}")
    except KeyboardInterrupt:
        interrupted = True
    except SourceError as error:
        say(f"the camera stopped: {error}")
    write_atomically(out, learner.document())
    emit({"game": arguments.game, "file": str(out), "mat": spec.id,
          "recorded": len(learner.entries), "duplicates": learner.counts.get("duplicate", 0),
          "not_recorded": learner.counts.get("again", 0),
          "frames": counter.count, "interrupted": interrupted})
    return 0


# -- edit and check ----------------------------------------------------------------------
def run_edit(arguments: argparse.Namespace) -> int:
    from station.copies import edit_in_terminal

    def tell(line: str) -> None:  # a checked value's error is the bare one-line error
        print(line, file=sys.stderr, flush=True)

    return edit_in_terminal(arguments.game, Path(arguments.file), sys.stdin, tell,
                            ask_all=arguments.all)


def run_check(arguments: argparse.Namespace) -> int:
    from station.copies import load_copy, summary

    if arguments.players is not None and arguments.players < 1:
        raise InputError("--players: must be at least 1")
    catalogue = load_copy(arguments.game, arguments.file, arguments.players)
    emit({"game": arguments.game, "file": arguments.file, "playable": True,
          **summary(arguments.game, catalogue)})
    return 0
