"""Where the station keeps its data, and the organiser's token.

Everything an event produces (the database, calibration, logs) lives under one
data directory: ``--data`` on the command line, else ``$PACKREF_DATA``, else a
per-user directory (``$XDG_DATA_HOME/packref``, usually
``~/.local/share/packref``).

The organiser's token guards every write of the API. It is generated at the
first start and printed once; only its SHA-256 is kept on disk, so a lost token
is replaced by deleting ``organiser-token.sha256`` and starting again. Setting
``$PACKREF_TOKEN`` instead gives the token yourself (useful for a tournament
hub whose stations must all share it).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from station.errors import InputError
from station.private import private_dir

TOKEN_FILE = "organiser-token.sha256"
DATABASE_FILE = "packref.sqlite3"
#: Every player's chance to win, on the table and projector pages (``serve --win-chances``).
WIN_CHANCES = True
#: The advisor's time budget per position, in seconds (``serve --advice-seconds``).
ADVICE_SECONDS = 0.5
#: The advice seconds a station accepts (a position waits at most the most).
MIN_ADVICE_SECONDS, MAX_ADVICE_SECONDS = 0.05, 10.0
#: Worker processes for advice: one, so the live loop keeps the other core.
ADVICE_WORKERS = 1
#: Playouts every answer has, however late (a worker starved of CPU still gives chances).
ADVICE_MIN_PLAYOUTS = 8


def default_data_dir() -> Path:
    """The per-user data directory used when ``--data`` is not given."""
    if os.environ.get("PACKREF_DATA"):
        return Path(os.environ["PACKREF_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "packref"


def hash_token(token: str) -> str:
    """The hex SHA-256 of a token, which is all the station stores."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TokenCheck:
    """Checks a presented token against the stored hash, in constant time."""

    token_hash: str

    def accepts(self, token: str | None) -> bool:
        if not token:
            return False
        return hmac.compare_digest(hash_token(token), self.token_hash)


@dataclass(frozen=True)
class AdviceSettings:
    """The advisor beside the live loop (docs/advisor.md, "At the table"): whether the pages
    show win chances, and the time budget of each position's search."""

    win_chances: bool = WIN_CHANCES
    seconds: float = ADVICE_SECONDS
    workers: int = ADVICE_WORKERS
    min_playouts: int = ADVICE_MIN_PLAYOUTS

    def __post_init__(self) -> None:
        if not MIN_ADVICE_SECONDS <= self.seconds <= MAX_ADVICE_SECONDS:
            raise ValueError(f"advice seconds must be {MIN_ADVICE_SECONDS:g} to "
                             f"{MAX_ADVICE_SECONDS:g}, not {self.seconds}")


@dataclass(frozen=True)
class Settings:
    """The station's settings: data directory, database URL, token check, advice."""

    data_dir: Path
    database_url: str
    token: TokenCheck
    new_token: str | None = None  # set only on the start that created it, to print once
    advice: AdviceSettings = AdviceSettings()

    @property
    def logs_dir(self) -> Path:
        return self.data_dir / "logs"


def ensure_token(data_dir: Path) -> tuple[TokenCheck, str | None]:
    """The token check for ``data_dir``, and the new token if one was just made.

    ``$PACKREF_TOKEN`` wins over the stored hash and is never written to disk.
    """
    given = os.environ.get("PACKREF_TOKEN")
    if given:
        return TokenCheck(hash_token(given)), None
    path = data_dir / TOKEN_FILE
    if path.exists():
        return TokenCheck(path.read_text(encoding="utf-8").strip()), None
    token = secrets.token_urlsafe(18)
    private_dir(data_dir)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(hash_token(token) + "\n")
    return TokenCheck(hash_token(token)), token


def load_settings(data_dir: str | Path | None = None, database_url: str | None = None,
                  advice: AdviceSettings | None = None) -> Settings:
    """Settings for a station: creates the data directory and the token if needed.

    The directory and its folders are its owner's only (``0700``, tightened if found
    looser): they hold the record, the photos and the token's hash."""
    directory = Path(data_dir) if data_dir else default_data_dir()
    try:
        for folder in (directory, directory / "logs", directory / "calibration"):
            private_dir(folder)
    except OSError as error:
        raise InputError(f"--data: cannot make {folder}: {error.strerror}") from None
    url = database_url or f"sqlite:///{directory / DATABASE_FILE}"
    check, new_token = ensure_token(directory)
    return Settings(data_dir=directory, database_url=url, token=check, new_token=new_token,
                    advice=advice or AdviceSettings())
