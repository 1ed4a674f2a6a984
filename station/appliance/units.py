"""The systemd units of the appliance, and installing them.

:func:`station_unit` is the system unit that runs ``packref serve`` at boot
(``packref service --print``); :func:`kiosk_unit` is the user unit that keeps the
projector view on the Pi's own screen. :class:`Installer` writes them under a
root directory (``/`` on the Pi, a temporary folder in tests) and enables them
through :class:`Systemctl`, the one seam to ``systemctl``. A file whose text is
already right is not written again, and nothing is reloaded: installing twice
changes nothing.

Example::

    >>> text = station_unit(UnitPlan(Path("/opt/v/bin/packref"), Path("/srv/p"), "pi"))
    >>> "Restart=on-failure" in text and "SupplementaryGroups=video dialout gpio" in text
    True
"""

from __future__ import annotations

import os
import pwd
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from station.appliance.config import (
    DEVICE_GROUPS,
    KIOSK_SCRIPT,
    KIOSK_SERVICE_NAME,
    SERVICE_NAME,
    STATION_FILE,
)
from station.errors import InputError
from station.private import private_dir


class ServiceError(InputError):
    """The service cannot be installed as asked (one line says why)."""


def packref_command() -> list[str]:
    """How this installation's own ``packref`` is started: the venv's script, else python -m."""
    script = Path(sys.executable).parent / "packref"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "station"]


def token_command(data_dir: Path) -> str:
    """How the organiser issues a token for ``data_dir`` at the Pi (``packref token --new``):
    the station under systemd makes none, since its output goes to the journal."""
    return shlex.join([*packref_command(), "token", "--new", "--data", str(data_dir)])


def default_user() -> str:
    """The user the station runs as: the one who ran ``sudo``, else the current one."""
    sudo_user = os.environ.get("SUDO_USER")
    if sudo_user and sudo_user != "root":
        return sudo_user
    return pwd.getpwuid(os.getuid()).pw_name


def home_of(user: str) -> Path:
    try:
        return Path(pwd.getpwnam(user).pw_dir)
    except KeyError:
        raise ServiceError(f"--user: there is no user {user!r} on this machine") from None


@dataclass(frozen=True)
class UnitPlan:
    """What the station's unit runs: which packref, on which data, as whom."""

    command: Path | list[str]
    data_dir: Path
    user: str

    def exec_start(self, *arguments: str) -> str:
        command = [str(self.command)] if isinstance(self.command, Path) else list(self.command)
        return shlex.join([*command, *arguments])


def plan_for(data: str | None, user: str | None) -> UnitPlan:
    """The unit plan for ``--data``/``--user`` (defaults: the user's own data directory)."""
    user = user or default_user()
    home = home_of(user)
    data_dir = Path(data).resolve() if data else home / ".local" / "share" / "packref"
    return UnitPlan(packref_command(), data_dir, user)


def station_unit(plan: UnitPlan) -> str:
    """The system unit running ``packref serve`` (``/etc/systemd/system/packref.service``)."""
    return f"""\
[Unit]
Description=packref station: live tables, dashboard, tournaments
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User={plan.user}
SupplementaryGroups={' '.join(DEVICE_GROUPS)}
Environment=PACKREF_DATA={plan.data_dir}
Environment=PYTHONUNBUFFERED=1
# Cameras and boards are in {plan.data_dir / STATION_FILE}.
ExecStart={plan.exec_start('serve', '--data', str(plan.data_dir))}
# /run/packref: who owns which camera.
RuntimeDirectory=packref
RuntimeDirectoryPreserve=yes
Restart=on-failure
RestartSec=3
TimeoutStopSec=20

[Install]
WantedBy=multi-user.target
"""


def kiosk_unit(url: str, script: str = KIOSK_SCRIPT) -> str:
    """The user unit showing ``url`` in Chromium's kiosk mode (started by the labwc session)."""
    return f"""\
[Unit]
Description=packref kiosk: the projector view on this screen
After=graphical-session.target
PartOf=graphical-session.target

[Service]
Type=simple
ExecStart={shlex.join([script, url])}
Restart=always
RestartSec=2

[Install]
WantedBy=graphical-session.target
"""


def kiosk_script(plan: UnitPlan) -> str:
    """``/usr/local/bin/packref-kiosk URL``: the kiosk watchdog of this installation."""
    return f"""\
#!/bin/sh
# packref kiosk: Chromium in kiosk mode on the projector view, relaunched when it
# crashes or its page goes blank (see docs/appliance.md).
exec {plan.exec_start('service', 'kiosk')} --url "${{1:-http://127.0.0.1:8000/}}"
"""


LABWC_AUTOSTART_LINE = (
    "systemctl --user import-environment WAYLAND_DISPLAY XDG_RUNTIME_DIR && "
    f"systemctl --user start {KIOSK_SERVICE_NAME} &")


class Systemctl:
    """The one seam to ``systemctl`` (tests give a recorder, or a real offline ``--root``)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def offline(self) -> bool:
        return self.root.resolve() != Path("/")

    def __call__(self, *arguments: str) -> None:
        command = ["systemctl", *arguments]
        if self.offline():
            command.insert(1, f"--root={self.root}")
        try:
            done = subprocess.run(command, capture_output=True, text=True, check=False)
        except FileNotFoundError:
            raise ServiceError("systemctl: not found (is this a systemd machine?)") from None
        if done.returncode != 0:
            reason = (done.stderr.strip() or f"exit status {done.returncode}").splitlines()[0]
            raise ServiceError(f"systemctl {' '.join(arguments)}: {reason}")


@dataclass
class Installer:
    """Writes the units under ``root`` and enables them; reports what changed."""

    root: Path
    systemctl: Systemctl
    changed: list[str] = field(default_factory=list)

    def place(self, path: str, text: str, mode: int = 0o644) -> bool:
        """Write ``text`` at ``root/path`` unless it is there already (atomically)."""
        target = self.root / path.lstrip("/")
        if target.exists() and target.read_text(encoding="utf-8") == text:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.chmod(mode)
        os.replace(temporary, target)
        self.changed.append(str(target))
        return True

    def install_station(self, plan: UnitPlan, station_text: str) -> None:
        self.place(f"/etc/systemd/system/{SERVICE_NAME}", station_unit(plan))
        data = self.root / str(plan.data_dir).lstrip("/")
        if not data.exists():
            private_dir(data)  # the station's record: its user's only (0700), as serve makes it
        if not (data / STATION_FILE).exists():
            self.place(f"{plan.data_dir / STATION_FILE}", station_text)
            self._own(data, plan.user)
        self._enable(SERVICE_NAME)

    def install_kiosk(self, plan: UnitPlan, url: str) -> None:
        self.place(KIOSK_SCRIPT, kiosk_script(plan), 0o755)
        self.place(f"/etc/systemd/user/{KIOSK_SERVICE_NAME}", kiosk_unit(url))
        self.systemctl("--global", "enable", KIOSK_SERVICE_NAME)
        autostart = home_of(plan.user) / ".config" / "labwc" / "autostart"
        target = self.root / str(autostart).lstrip("/")
        lines = target.read_text(encoding="utf-8").splitlines() if target.exists() else []
        if LABWC_AUTOSTART_LINE not in lines:
            self.place(str(autostart), "\n".join([*lines, LABWC_AUTOSTART_LINE]) + "\n")
            self._own(target.parent, plan.user)

    def _enable(self, unit: str) -> None:
        if self.changed and not self.systemctl.offline():
            self.systemctl("daemon-reload")
        self.systemctl("enable", unit)

    def _own(self, directory: Path, user: str) -> None:
        """Give what was made for ``user`` to them (the station writes its data as them):
        ``directory``, what it holds, and its parents inside the user's home."""
        entry = pwd.getpwnam(user)
        home = self.root / str(home_of(user)).lstrip("/")
        inside = [parent for parent in directory.parents if parent.is_relative_to(home)
                  and parent != home]
        for path in [*inside, directory, *directory.rglob("*")]:
            os.chown(path, entry.pw_uid, entry.pw_gid)
