"""Where the station keeps its data, and the organiser's token.

Everything an event produces (the database, calibration, logs) lives under one
data directory: ``--data`` on the command line, else ``$PACKREF_DATA``, else a
per-user directory (``$XDG_DATA_HOME/packref``, usually
``~/.local/share/packref``).

The organiser's token guards every write of the API: how it is made, shown and
checked is in :mod:`station.tokens` (``packref token --new`` issues a new one; setting
``$PACKREF_TOKEN`` gives it yourself, for a hub whose stations share it). Loading the
settings never makes a token: a token nobody saw would guard the station against its
organiser too.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from station.errors import InputError
from station.private import private_dir
from station.tokens import TOKEN_FILE, TokenCheck, hash_token

__all__ = ["TOKEN_FILE", "AdviceSettings", "Settings", "TokenCheck", "default_data_dir",
           "hash_token", "load_settings"]

DATABASE_FILE = "packref.sqlite3"
#: Every player's chance to win, on the table and projector pages (``serve --win-chances``).
WIN_CHANCES = True
#: The advisor's time budget per position, in seconds, of a game that sets none of its own
#: (``GameRecord.advice_seconds``), unless ``serve --advice-seconds`` sets one for every game.
ADVICE_SECONDS = 0.5
#: The advice seconds a station accepts (a position waits at most the most).
MIN_ADVICE_SECONDS, MAX_ADVICE_SECONDS = 0.05, 10.0
#: Worker processes for advice: one, so the live loop keeps the other core.
ADVICE_WORKERS = 1
#: Playouts every answer has, however late (a worker starved of CPU still gives chances).
ADVICE_MIN_PLAYOUTS = 8
#: A win chance is shown only when every player's 95 % interval is at most this wide, and
#: not before the first move (station.advice.credible_chances; docs/advisor.md).
ADVICE_CREDIBLE_WIDTH = 0.30


def default_data_dir() -> Path:
    """The per-user data directory used when ``--data`` is not given."""
    if os.environ.get("PACKREF_DATA"):
        return Path(os.environ["PACKREF_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "packref"


@dataclass(frozen=True)
class AdviceSettings:
    """The advisor beside the live loop (docs/advisor.md, "At the table"): whether the pages
    show win chances, and the time budget of each position's search."""

    win_chances: bool = WIN_CHANCES
    seconds: float | None = None  # None: each game's own (GameRecord.advice_seconds)
    workers: int = ADVICE_WORKERS
    min_playouts: int = ADVICE_MIN_PLAYOUTS
    # A fixed amount of work per position instead of the clock's (None: the clock decides):
    # the same position then always gets the same chances, whatever the machine's load.
    max_playouts: int | None = None
    # How sure a shown chance must be (see ADVICE_CREDIBLE_WIDTH); None shows every estimate,
    # even before the first move (the advisor's plumbing tests, a look at the raw numbers).
    credible_width: float | None = ADVICE_CREDIBLE_WIDTH

    def __post_init__(self) -> None:
        if self.seconds is not None and not (
                MIN_ADVICE_SECONDS <= self.seconds <= MAX_ADVICE_SECONDS):
            raise ValueError(f"advice seconds must be {MIN_ADVICE_SECONDS:g} to "
                             f"{MAX_ADVICE_SECONDS:g}, not {self.seconds}")


@dataclass(frozen=True)
class Settings:
    """The station's settings: data directory, database URL, token check, advice."""

    data_dir: Path
    database_url: str
    token: TokenCheck
    advice: AdviceSettings = AdviceSettings()
    #: Sites besides the station itself whose pages may open its live sockets
    #: (``scheme://host[:port]``; see :mod:`station.api.origin`).
    allowed_origins: tuple[str, ...] = ()

    @property
    def logs_dir(self) -> Path:
        return self.data_dir / "logs"


def load_settings(data_dir: str | Path | None = None, database_url: str | None = None,
                  advice: AdviceSettings | None = None,
                  allowed_origins: tuple[str, ...] = ()) -> Settings:
    """Settings for a station: creates the data directory, never a token (see
    :mod:`station.tokens`). The directory and its folders are its owner's only (``0700``,
    tightened if found looser): they hold the record, the photos and the token's hash."""
    directory = Path(data_dir) if data_dir else default_data_dir()
    try:
        for folder in (directory, directory / "logs", directory / "calibration"):
            private_dir(folder)
    except OSError as error:
        raise InputError(f"--data: cannot make {folder}: {error.strerror}") from None
    url = database_url or f"sqlite:///{directory / DATABASE_FILE}"
    return Settings(data_dir=directory, database_url=url, token=TokenCheck.stored(directory),
                    advice=advice or AdviceSettings(), allowed_origins=allowed_origins)
