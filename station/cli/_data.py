"""The station's data folder, as every command that uses it finds it and says it.

One folder holds a station's database, token hash, logs and calibration: ``--data`` on the
command line, else ``$PACKREF_DATA``, else the per-user folder
(:func:`station.config.default_data_dir`, usually ``~/.local/share/packref``). Every command
that uses it prints it on stderr, one line (``packref: data folder /home/ana/.local/share/
packref``), so a command run in the wrong folder says so; ``--help`` shows the folder a
command would use here. The line comes before the command's output (``serve``: before its
JSON line, once started); a command stopped by a mistake prints only its one line of error,
as every mistake is (:func:`station.cli.main`).

A command that works on what a station already has (a table's events, a tournament's
standings: every ``table`` and ``tournament`` command but ``add``) and finds no station there
says where it looked, exits 2 and makes nothing: no database, no folder, no token's hash.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from station.config import DATABASE_FILE, default_data_dir
from station.errors import InputError


def data_help(what: str = "the station's data folder") -> str:
    """The ``--data`` option's help, with the folder this machine would use without it."""
    shown = str(default_data_dir()).replace("%", "%%")  # argparse formats help with %
    return f"{what} (default here: {shown}; $PACKREF_DATA sets another)"


def storage_options(parser: argparse.ArgumentParser) -> None:
    """``--data`` and ``--db``, as every command on a station's database has them."""
    parser.add_argument("--data", metavar="DIR", help=data_help())
    parser.add_argument("--db", metavar="URL",
                        help="database URL (default: SQLite in the data folder)")


#: The data-folder line not printed yet (one command at a time runs in a process).
_PENDING: list[str] = []


def say_data_folder(folder: Path) -> None:
    """The line on stderr naming the folder a command uses, printed by :func:`say_pending`
    before the command's output (dropped when it stops on a mistake)."""
    _PENDING[:] = [f"packref: data folder {folder}"]


def say_pending() -> None:
    """Print the data-folder line now, if it is waiting."""
    for line in _PENDING:
        print(line, file=sys.stderr, flush=True)
    _PENDING.clear()


def drop_pending() -> None:
    """Forget the waiting line (a new command, or one stopped by a mistake)."""
    _PENDING.clear()


def data_folder(arguments: argparse.Namespace) -> Path:
    """The folder of ``--data`` (else the default), said on stderr once per command."""
    folder = Path(arguments.data) if getattr(arguments, "data", None) else default_data_dir()
    say_data_folder(folder)
    return folder


def has_station_data(folder: Path) -> bool:
    """Whether ``folder`` holds a station's database (what ``serve`` or ``table add`` make)."""
    return (folder / DATABASE_FILE).is_file()


def existing_station(arguments: argparse.Namespace, command: str) -> Path:
    """The data folder of a command that needs a station already there: without one there
    (and no ``--db`` naming a database elsewhere) the command stops, making nothing."""
    folder = data_folder(arguments)
    if getattr(arguments, "db", None) or has_station_data(folder):
        return folder
    raise InputError(f"packref {command}: no station data in {folder} (no {DATABASE_FILE}): "
                     "give the station's folder with --data DIR (or $PACKREF_DATA)")
