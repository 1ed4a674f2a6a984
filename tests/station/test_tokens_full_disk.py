"""The organiser's token on a full disk: a first start that cannot write its hash leaves
no file at all (never a 0-byte hash that refuses every later token), and an empty hash
file (left so by an older version) is taken over by the next first token."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from station import tokens
from station.tokens import TOKEN_FILE, TokenCheck, store_first_token


def test_a_first_token_on_a_full_disk_leaves_no_file(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def no_room(_descriptor: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tokens.os, "fsync", no_room)
    with pytest.raises(OSError) as raised:
        store_first_token(tmp_path, "first-token")
    assert raised.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []  # neither the hash nor its temporary file
    monkeypatch.undo()
    assert store_first_token(tmp_path, "second-token")  # room again: the next start keeps it
    assert TokenCheck.stored(tmp_path).accepts("second-token")


def test_an_empty_hash_file_is_taken_over_by_the_first_token(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    monkeypatch.delenv("PACKREF_TOKEN", raising=False)
    (tmp_path / TOKEN_FILE).touch()
    assert not TokenCheck.stored(tmp_path).issued
    assert store_first_token(tmp_path, "first-token")
    assert TokenCheck.stored(tmp_path).accepts("first-token")
    assert not store_first_token(tmp_path, "another")  # a whole hash is never replaced
