"""Writing JSON to stdout, the only thing a command prints there."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any


def emit(document: Any) -> None:
    """Print one JSON document on stdout."""
    sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def emit_lines(documents: Iterable[Any]) -> None:
    """Print JSON Lines on stdout, one object per line, flushed as they come."""
    for document in documents:
        emit(document)
