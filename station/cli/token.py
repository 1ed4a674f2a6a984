"""``packref token --new``: issue the organiser's token to the person at the station.

The new token replaces the old one (only its hash is kept, ``DATA/organiser-token.sha256``)
and is printed to the terminal, once. A running station reads the new hash at its next
check of a token: no restart, and the old token stops working at once. The command
refuses to print into anything but a terminal (a pipe, a file, a journal keeps what it is
given) unless ``--print`` says so.
"""

from __future__ import annotations

import argparse
import os
import sys

from station.cli._data import data_folder, data_help, say_pending
from station.errors import InputError
from station.output import emit

ORDER = 61


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    token = subparsers.add_parser(
        "token", help="issue a new organiser's token (the old one stops working)",
        description="Issue a new organiser's token for the station of --data and print it, "
        "once, to this terminal: the old token stops working at once, and a running station "
        "takes the new one without a restart. Run it at the station itself, as the user "
        "the station runs as.")
    token.add_argument("--new", action="store_true",
                       help="make a new token (required: the old one is replaced)")
    token.add_argument("--data", metavar="DIR", help=data_help())
    token.add_argument("--print", dest="print_anyway", action="store_true",
                       help="print the token even though stdout is not a terminal (a pipe "
                       "or file keeps it: use it only to hand it to something you trust)")
    token.set_defaults(run=run_token)


def _refusal(arguments: argparse.Namespace) -> str | None:
    """Why no token is issued as asked (None: it is)."""
    if not arguments.new:
        return "token: say --new to issue a new organiser's token (the old one stops working)"
    if os.environ.get("PACKREF_TOKEN"):
        return ("token --new: $PACKREF_TOKEN is set, and a station started with it uses that "
                "token, not the data directory's: change it where it is set instead")
    if not sys.stdout.isatty() and not arguments.print_anyway:
        return ("token --new: stdout is not a terminal, so the token would be kept where it "
                "goes: run it at the station's terminal, or add --print to print it anyway")
    return None


def run_token(arguments: argparse.Namespace) -> int:
    from station.tokens import make_token, replace_token

    refusal = _refusal(arguments)
    if refusal:
        raise InputError(refusal)
    data_dir = data_folder(arguments)
    token = make_token()
    try:
        path = replace_token(data_dir, token)
    except OSError as error:
        raise InputError(f"token --new: cannot write in {data_dir}: {error.strerror}") from None
    say_pending()  # the data folder first: the line about the token is the last word
    emit({"token": token, "data": str(data_dir), "file": str(path)})
    print("packref: the organiser's new token is the \"token\" above: keep it, it is shown "
          "only this once; the old one no longer works", file=sys.stderr)
    return 0
