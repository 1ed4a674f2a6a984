"""Folders and files only their owner may read: the data directory and what it keeps.

The station's data directory holds the record of every game, the photos behind rulings
and the hash of the organiser's token; on a Pi in a venue other accounts (a guest
login, a service) must not read it. So its folders are made ``0700`` and its files
``0600`` whatever the umask is (the mode is set after creating, since the umask only
ever takes bits away, sometimes the owner's own), and a folder or file found looser at
start is tightened, saying so once on stderr.

Example::

    >>> import tempfile, pathlib
    >>> folder = private_dir(pathlib.Path(tempfile.mkdtemp()) / "data")
    >>> oct(folder.stat().st_mode & 0o777)
    '0o700'
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def _note(path: Path, message: str) -> None:
    print(f"packref: {path}: {message}", file=sys.stderr)


def _tighten(path: Path, mode: int) -> None:
    """Give ``path`` exactly ``mode``, saying so when others (or its group) could read it.

    Left as it is, and named: a path of another user, or a shared folder (the sticky bit,
    as ``/tmp``), which is no place of this station's to close."""
    try:
        found = path.stat()
        current = stat.S_IMODE(found.st_mode)
        if current == mode:
            return
        if found.st_uid != os.geteuid() or current & stat.S_ISVTX:
            _note(path, "a shared folder or another user's: left as it is (give the station "
                  "a folder of its own)")
            return
        path.chmod(mode)
    except OSError as error:
        _note(path, f"cannot make it owner-only ({error.strerror})")
        return
    if current & 0o077:  # looser than owner-only: worth a word; stricter is only fixed
        _note(path, f"was readable by others ({current:o}): now owner-only ({mode:o})")


def private_dir(path: Path) -> Path:
    """``path`` as a folder only its owner may enter (``0700``), and so each parent it
    makes (``mkdir -p`` would give those the umask's mode); an existing one is tightened."""
    path = Path(path)
    if path.is_dir():
        _tighten(path, DIR_MODE)
        return path
    missing = [path, *(parent for parent in path.parents if not parent.exists())]
    for folder in reversed(missing):
        folder.mkdir(mode=DIR_MODE, exist_ok=True)
        folder.chmod(DIR_MODE)  # whatever the umask took away
    return path


def private_file(path: Path) -> Path:
    """``path`` as a file only its owner may read: created empty (``0600``) when missing,
    tightened when found looser. SQLite gives its journal and WAL the mode of the
    database file, so a database made here keeps them private too."""
    path = Path(path)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        _tighten(path, FILE_MODE)
        return path
    try:
        os.fchmod(descriptor, FILE_MODE)
    finally:
        os.close(descriptor)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all, readable by its owner only (a
    ``0600`` temporary file beside it, then a rename over the old one)."""
    path = Path(path)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(descriptor, FILE_MODE)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
