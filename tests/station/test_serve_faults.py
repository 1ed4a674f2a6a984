"""A start that cannot write its log names the file and what to do (never a traceback)."""

from __future__ import annotations

import errno
import logging
from pathlib import Path

import pytest

from station.cli import serve
from station.config import Settings
from station.errors import InputError


def test_a_log_that_cannot_be_written_names_the_file_and_the_remedy(settings: Settings) -> None:
    log = Path(settings.logs_dir) / "station.log"
    log.mkdir(parents=True)  # a folder where the file should be
    with pytest.raises(InputError) as refused:
        serve._log_to_file(settings)
    assert str(refused.value) == (
        f"cannot write {log} (Is a directory): let the station's user write its data "
        "folder (chown/chmod), or give another with --data")


def test_a_log_on_a_full_disk_says_how_much_is_free(settings: Settings,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def no_room(*_arguments: object, **_keywords: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    Path(settings.logs_dir).mkdir(parents=True)
    monkeypatch.setattr(logging, "FileHandler", no_room)
    with pytest.raises(InputError, match=r"^cannot write .*station\.log: the data folder is "
                       r"full \(\d+ MB free\): make room \(old logs, the game archive\) and "
                       "start again$"):
        serve._log_to_file(settings)
