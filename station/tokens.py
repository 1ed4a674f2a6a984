"""The organiser's token: made, shown once to a person, and checked; only its hash is kept.

The token guards every write of the API (and the full reads). Only its SHA-256 is on
disk, in ``DATA/organiser-token.sha256`` (``0600``). It is made in two places only:

- ``packref serve`` at its first start *on a terminal*: it keeps the new token in memory
  and writes its hash once the server has started, so a start that fails (port taken,
  bad database) leaves no hash whose token nobody saw;
- ``packref token --new`` at the station's terminal: a new hash replaces the old.

A running station looks at the hash file at every check and reads it again when it
changed, so a token issued by ``packref token --new`` works at once and the old one
stops, without a restart. ``$PACKREF_TOKEN`` gives the token instead (a hub whose
stations share it); it is never written to disk.

Example::

    >>> check = TokenCheck(hash_token("secret"))
    >>> check.accepts("secret"), check.accepts("guess"), check.accepts(None)
    (True, False, False)
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import tempfile
import threading
from pathlib import Path

from station.private import FILE_MODE, private_dir

TOKEN_FILE = "organiser-token.sha256"
TOKEN_BYTES = 18  # 24 URL-safe characters: typed once into a phone, never guessed


def hash_token(token: str) -> str:
    """The hex SHA-256 of a token, which is all the station stores."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def make_token() -> str:
    """A new random token (shown to one person, then only its hash is kept)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def _signature(path: Path) -> tuple[int, int, int] | None:
    """What changes when the file is replaced or rewritten (None: there is none)."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return None
    return found.st_ino, found.st_mtime_ns, found.st_size


def _read_hash(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    return text or None


class TokenCheck:
    """Checks a presented token against the organiser's hash, in constant time.

    With ``path`` (the hash file) the file is looked at on every check and read again when
    it changed: ``packref token --new`` takes effect at once on a running station, the old
    token stops working, and a deleted file refuses every token. Without one (``$PACKREF_TOKEN``,
    tests) the hash never changes.
    """

    def __init__(self, token_hash: str | None, path: Path | None = None) -> None:
        self._hash = token_hash
        self._path = path
        self._seen = _signature(path) if path is not None else None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        where = f" from {self._path}" if self._path else ""
        return f"<TokenCheck {'issued' if self.token_hash else 'none issued'}{where}>"

    @classmethod
    def stored(cls, data_dir: Path) -> TokenCheck:
        """The check of ``data_dir``'s hash file (``$PACKREF_TOKEN`` wins over it)."""
        given = os.environ.get("PACKREF_TOKEN")
        if given:
            return cls(hash_token(given))
        path = Path(data_dir) / TOKEN_FILE
        return cls(_read_hash(path), path)

    @property
    def token_hash(self) -> str | None:
        """The hash now in force (None: no token issued yet, so every write is refused)."""
        if self._path is None:
            return self._hash
        with self._lock:
            now = _signature(self._path)
            if now != self._seen:
                self._hash, self._seen = _read_hash(self._path), now
            return self._hash

    @property
    def issued(self) -> bool:
        return self.token_hash is not None

    def accepts(self, token: str | None) -> bool:
        expected = self.token_hash
        if not token or expected is None:
            return False
        return hmac.compare_digest(hash_token(token), expected)


def _hash_file_beside(path: Path, token: str) -> Path:
    """A ``0600`` temporary file beside ``path`` holding the token's hash, on disk."""
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(descriptor, FILE_MODE)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(hash_token(token) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return Path(temporary)


def store_first_token(data_dir: Path, token: str) -> bool:
    """Keep ``token``'s hash unless a token was issued meanwhile (False then): the file
    appears whole, or not at all, and never replaces another. An empty hash file (left by
    an older version on a full disk) holds no token: the first one takes its place."""
    path = private_dir(Path(data_dir)) / TOKEN_FILE
    temporary = _hash_file_beside(path, token)
    try:
        os.link(temporary, path)
    except FileExistsError:
        if _read_hash(path) is not None:
            return False
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return True


def replace_token(data_dir: Path, token: str) -> Path:
    """Make ``token`` the organiser's (the old one stops working); the hash file's path.

    Run as root on another user's data directory (``sudo packref token --new``), the file
    is given to the directory's owner, whom the station runs as, so it can still read it.
    """
    directory = private_dir(Path(data_dir))
    path = directory / TOKEN_FILE
    temporary = _hash_file_beside(path, token)
    try:
        owner = directory.stat()
        if os.geteuid() == 0 and owner.st_uid != 0:
            os.chown(temporary, owner.st_uid, owner.st_gid)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path
