"""Faults of the machine, told in words: a full data folder, a busy database.

Below the store and the API: the store refuses a database it cannot make with these
words, and the API answers ``507`` (full) or ``503`` with ``Retry-After`` (busy) with them.

>>> is_disk_full(OSError(28, "No space left on device"))
True
>>> is_busy(Exception("(sqlite3.OperationalError) database is locked"))
True
"""

from __future__ import annotations

import errno
import shutil
from collections.abc import Iterator
from pathlib import Path

MEGABYTE = 1024 * 1024
# What SQLite and PostgreSQL say when they cannot write for want of room, or for a lock.
_FULL_WORDS = ("database or disk is full", "no space left on device", "disk full")
_BUSY_WORDS = ("database is locked", "database is busy", "database table is locked",
               "could not obtain lock", "lock timeout", "canceling statement due to lock")


def _chain(error: BaseException) -> Iterator[BaseException]:
    """``error`` and every error it was raised from (SQLAlchemy wraps the driver's)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        orig = getattr(current, "orig", None)
        current = orig if isinstance(orig, BaseException) else (
            current.__cause__ or current.__context__)


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` (or what it wraps) is a write refused for want of room."""
    for cause in _chain(error):
        if isinstance(cause, OSError) and cause.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if any(words in str(cause).lower() for words in _FULL_WORDS):
            return True
    return False


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` (or what it wraps) is a database held by another writer."""
    return any(any(words in str(cause).lower() for words in _BUSY_WORDS)
               for cause in _chain(error))


def free_megabytes(folder: Path) -> int:
    """The room left in ``folder``'s file system, in whole MB (0 when it cannot be read)."""
    try:
        return shutil.disk_usage(folder).free // MEGABYTE
    except OSError:
        return 0


def disk_full_words(folder: Path) -> str:
    """``the data folder is full (3 MB free)``: what a write refused for want of room says."""
    return f"the data folder is full ({free_megabytes(folder)} MB free)"
