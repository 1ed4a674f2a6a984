"""The ``packref`` command.

Each module of this package adds one command group: it defines ``ORDER`` (its
place in ``packref --help``) and ``add_commands(subparsers)``, which adds its
sub-parsers with ``set_defaults(run=handler)``. A handler takes the parsed
arguments and returns the exit status.

Output conventions (``docs/formats.md``): JSON on stdout and nothing else; a user
mistake is one line on stderr and exit status 2; status 1 is an internal error.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import signal
import sys
import threading
import traceback
from collections.abc import Sequence

from station.cli._data import drop_pending, say_pending
from station.errors import InputError
from station.games import game_records


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(f"{self.prog}: {message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="packref",
        description="packref: a table assistant for Removal, Moving Day, "
        "Pick 'n Packers and Small Warehouse.",
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=_Parser)
    modules = [
        importlib.import_module(f"{__name__}.{info.name}")
        for info in pkgutil.iter_modules(__path__)
        if not info.name.startswith("_")
    ]
    groups = [(module.ORDER, module.add_commands) for module in modules]
    groups += [(record.command.order, record.command.add) for record in game_records()
               if record.command is not None]  # a game's own command (``packref removal``)
    for _, add_commands in sorted(groups, key=lambda group: group[0]):
        add_commands(subparsers)
    return parser


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``packref`` with ``argv`` (default ``sys.argv[1:]``) and return the exit status."""
    if threading.current_thread() is threading.main_thread():
        # SIGTERM (a service manager stopping the station) ends a command the way
        # Ctrl-C does, so its clean-up runs: the database is closed, temporary
        # folders and half-written outputs are removed.
        signal.signal(signal.SIGTERM, _interrupt)
    drop_pending()
    try:
        parser = build_parser()
        arguments = parser.parse_args(argv)
        if not hasattr(arguments, "run"):
            parser.print_help(sys.stderr)
            return 2
        status = int(arguments.run(arguments) or 0)
        say_pending()  # the data folder used, for a command with nothing to print too
        return status
    except InputError as error:
        drop_pending()  # a mistake is its one line (the line names the folder where it matters)
        print(str(error).splitlines()[0] if str(error) else "bad input", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("packref: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # stdout went away (e.g. piped into head): not an error of ours.
        sys.stderr.close()
        return 0
    except Exception as error:  # the last line of defence: status 1, one line
        if os.environ.get("PACKREF_DEBUG"):
            traceback.print_exc()
        print(f"packref: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
