"""Frames → observations: mats, cells and tags seen by the overhead camera.

``vision`` never imports ``rules`` or ``station``; it gives plain values.

The names below load on first use (PEP 562), so importing ``vision`` or a module
that only describes mats (``vision.layout``, ``vision.games.*``, ``vision.kit``)
does not load OpenCV; the reader and the renderers import it when they are used.

Example::

    >>> from vision import MatSpec, Reader
    >>> reader = Reader([MatSpec(id=0, rows=8, cols=10, kind="colour")])
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.config import DEFAULT_CONFIG, ReaderConfig
    from vision.errors import ImageError, SourceError, VisionError
    from vision.layout import MatSpec
    from vision.reader import Reader, load_image

# Each public name and the module that defines it.
_HOMES = {
    "DEFAULT_CONFIG": "vision.config",
    "ReaderConfig": "vision.config",
    "ImageError": "vision.errors",
    "SourceError": "vision.errors",
    "VisionError": "vision.errors",
    "MatSpec": "vision.layout",
    "Reader": "vision.reader",
    "load_image": "vision.reader",
}

__all__ = ["DEFAULT_CONFIG", "ImageError", "MatSpec", "Reader", "ReaderConfig", "SourceError",
           "VisionError", "load_image"]


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module 'vision' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
