"""``packref doctor``: one JSON object saying whether this station is ready for game night.

Only what the station is set up to use is checked (see :mod:`station.appliance.doctor`).
Exit status: 0 when nothing needs attention (a check "not configured" is not a fault), 3
when something the station uses needs attention; 2 is a mistake in the command (a bad
``--config``), 1 an internal error, as for every command.
"""

from __future__ import annotations

import argparse

from station.cli._data import data_folder, data_help
from station.output import emit

ORDER = 63
#: ``packref doctor``'s status when a check of something the station uses needs attention.
NEEDS_ATTENTION_STATUS = 3


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="check what this station uses: cameras, drone boards, GPIO, database, "
        "disk, kit",
        description="Check this station as it is set up (DATA/station.toml): its cameras (each "
        "opens; resolution, frame rate), drone boards (a HELLO within 2 s), GPIO (with "
        "gpio_buttons), the database, the disk (room for archives) and the kit (the mats the "
        "camera sees). What the station does not use is 'not configured', not a fault. Prints "
        "one JSON object; exit 0 when nothing needs attention, 3 when something does "
        "(1 stays an internal error).")
    doctor.add_argument("--data", metavar="DIR", help=data_help())
    doctor.add_argument("--db", metavar="URL",
                        help="database URL (default: SQLite in the data folder)")
    doctor.add_argument("--config", metavar="FILE",
                        help="station settings (default DATA/station.toml when there is one)")
    doctor.add_argument("--look", action="store_true",
                        help="also check what this machine shows though the station does not "
                        "use it: /dev/video0 or Picamera2, /dev/ttyACM*, /dev/ttyUSB*, GPIO")
    doctor.set_defaults(run=run_doctor)


def run_doctor(arguments: argparse.Namespace) -> int:
    from station.appliance.doctor import Doctor
    from station.appliance.setup import doctor_setup

    data_dir = data_folder(arguments)
    report = Doctor(doctor_setup(data_dir, arguments.db, arguments.config,
                                 look=arguments.look)).run()
    emit(report)
    return 0 if report["ok"] else NEEDS_ATTENTION_STATUS
