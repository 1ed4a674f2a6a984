"""Keeping OpenCV's and its libraries' own messages off stderr.

The command line promises one line on stderr for a bad input; libjpeg, FFmpeg
and OpenCV's video back-ends print their own warnings straight to the process's
stderr. Inside :func:`quiet_stderr` they go nowhere.

Example::

    >>> import cv2, numpy as np
    >>> with quiet_stderr():
    ...     cv2.imdecode(np.frombuffer(b"\\xff\\xd8 junk", np.uint8), cv2.IMREAD_COLOR) is None
    True
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import cv2


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Silence file descriptor 2 and OpenCV's logging for the duration of the block."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    saved, silent = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(silent, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(silent)
        cv2.utils.logging.setLogLevel(level)
