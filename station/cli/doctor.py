"""``packref doctor``: one JSON object saying whether this machine is ready for game night.

Exit status 0 when every check passes, 1 otherwise (see
:mod:`station.appliance.doctor`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from station.output import emit

ORDER = 63


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="check camera, drone board, GPIO, database, disk and kit",
        description="Check this station: cameras (each opens; resolution, frame rate), drone "
        "boards (serial ports; a HELLO within 2 s), GPIO (a pin factory), the database "
        "(reachable, schema), the disk (room for archives) and the kit (the mats the camera "
        "sees). Prints one JSON object; exit 0 when all pass, 1 otherwise.")
    doctor.add_argument("--data", help="data directory (default: the per-user one)")
    doctor.add_argument("--db", help="database URL (default: SQLite under --data)")
    doctor.add_argument("--config", metavar="FILE",
                        help="station settings (default DATA/station.toml when there is one)")
    doctor.set_defaults(run=run_doctor)


def run_doctor(arguments: argparse.Namespace) -> int:
    from station.appliance.doctor import Doctor
    from station.appliance.setup import doctor_setup
    from station.config import default_data_dir

    data_dir = Path(arguments.data) if arguments.data else default_data_dir()
    report = Doctor(doctor_setup(data_dir, arguments.db, arguments.config)).run()
    emit(report)
    return 0 if report["ok"] else 1
