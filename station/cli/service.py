"""``packref service``: the station as a systemd service (and the kiosk on the Pi's screen).

``packref service --print`` shows the unit; ``packref service install`` (root)
writes and enables it, with a default ``DATA/station.toml`` for the cameras
and boards; ``--kiosk`` adds the projector view in Chromium on this screen.
``packref service kiosk --url URL`` is what the kiosk unit runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from station.errors import InputError
from station.output import emit

ORDER = 62
DEFAULT_URL = "http://127.0.0.1:8000/"


def _unit_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", help="the station's data directory (default: the user's "
                        "~/.local/share/packref)")
    parser.add_argument("--user", help="run the station as USER (default: the one who ran "
                        "sudo, else the current user)")


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    service = subparsers.add_parser(
        "service", help="run the station at boot (systemd), and the kiosk screen",
        description="Print or install the systemd unit that runs 'packref serve' at boot. "
        "Cameras and boards go in DATA/station.toml.")
    service.add_argument("--print", action="store_true", dest="print_unit",
                         help="print the station's unit")
    _unit_options(service)
    service.set_defaults(run=lambda arguments: run_print(arguments, service))
    commands = service.add_subparsers(title="service commands", metavar="COMMAND",
                                      parser_class=type(service))
    install = commands.add_parser(
        "install", help="write and enable the unit (root); running it twice changes nothing")
    _unit_options(install)
    install.add_argument("--root", default="/", help=argparse.SUPPRESS)  # tests: a fake root
    install.add_argument("--kiosk", action="store_true",
                         help="also show the projector view in Chromium on this screen")
    install.add_argument("--kiosk-url", default=DEFAULT_URL,
                         help=f"the page the kiosk shows (default {DEFAULT_URL}; e.g. "
                         "http://127.0.0.1:8000/tables/table-1/projector)")
    install.set_defaults(run=run_install)
    kiosk = commands.add_parser(
        "kiosk", help="show a page in Chromium's kiosk mode, relaunched when it crashes "
        "or goes blank (what the kiosk unit runs)")
    kiosk.add_argument("--url", default=DEFAULT_URL, help=f"the page (default {DEFAULT_URL})")
    kiosk.add_argument("--browser", default=None, help="the browser (default: chromium)")
    kiosk.set_defaults(run=run_kiosk)


def run_print(arguments: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from station.appliance.units import plan_for, station_unit

    if not arguments.print_unit:
        parser.print_help(sys.stderr)
        return 2
    sys.stdout.write(station_unit(plan_for(arguments.data, arguments.user)))
    return 0


def geteuid() -> int:
    """The effective user id (a seam: tests pretend not to be root)."""
    return os.geteuid()


def run_install(arguments: argparse.Namespace) -> int:
    from station.appliance.config import STATION_FILE
    from station.appliance.station_file import DEFAULT_TEXT, read_station_file
    from station.appliance.units import Installer, Systemctl, plan_for, token_command
    from station.tokens import TOKEN_FILE

    if geteuid() != 0:
        raise InputError("service install: must be run as root (sudo packref service install)")
    plan = plan_for(arguments.data, arguments.user)
    root = Path(arguments.root)
    existing = root / str(plan.data_dir).lstrip("/") / STATION_FILE
    if existing.exists():
        read_station_file(existing)  # a broken file is said now, not at the next boot
    installer = Installer(root, Systemctl(root))
    installer.install_station(plan, DEFAULT_TEXT)
    if arguments.kiosk:
        installer.install_kiosk(plan, arguments.kiosk_url)
    emit({"unit": str(root / "etc/systemd/system/packref.service"), "user": plan.user,
          "data": str(plan.data_dir), "kiosk": bool(arguments.kiosk),
          "changed": installer.changed})
    if not (existing.parent / TOKEN_FILE).exists():
        print("packref: the service shows no token (its output goes to the journal): issue "
              f"the organiser's at this Pi's own terminal: {token_command(plan.data_dir)}",
              file=sys.stderr)
    return 0


def run_kiosk(arguments: argparse.Namespace) -> int:
    from station.appliance.kiosk import Kiosk, chromium_command

    Kiosk(arguments.url, chromium_command(arguments.browser)).run()
    return 0
