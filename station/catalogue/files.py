"""Writing a catalogue file whole or not at all (a temporary file, then a rename)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from station.errors import InputError
from station.jsonin import load_json_file
from station.private import FILE_MODE, private_dir


def write_atomically(path: str | Path, document: Any) -> None:
    """Write ``document`` as JSON to ``path``: readers see the old file or the new, never half."""
    target = Path(path)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                             dir=target.parent)
    try:
        os.fchmod(descriptor, FILE_MODE)  # mkstemp's 0600, whatever the umask took away
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class CopyFolder:
    """The station's copies' catalogues, one file per game: ``DATA/catalogues/GAME.json``.

    ``serve`` plays each game with the file found here (unless ``--catalogue`` says
    otherwise); the dashboard's catalogue page reads and fills them. ``games``: the games
    a copy's catalogue can be learnt for (their records have a catalogue wiring).
    """

    def __init__(self, folder: Path, games: Sequence[str]) -> None:
        self.folder = folder
        self.games = list(games)

    def path(self, game: str) -> Path:
        if game not in self.games:
            raise InputError(f"no game called {game!r} (known: {', '.join(self.games)})")
        return self.folder / f"{game}.json"

    def load(self, game: str) -> dict[str, Any] | None:
        """The game's file as it stands (None: no copy taught yet)."""
        path = self.path(game)
        return load_json_file(path).value if path.exists() else None

    def save(self, game: str, document: dict[str, Any]) -> None:
        private_dir(self.folder)  # inside the data directory: its owner's only, as the rest
        write_atomically(self.path(game), document)
