"""Frames → observations: mats, cells and tags seen by the overhead camera.

``vision`` never imports ``rules`` or ``station``; it gives plain values.

Example::

    >>> from vision import MatSpec, Reader
    >>> reader = Reader([MatSpec(id=0, rows=8, cols=10, kind="colour")])
"""

from vision.config import DEFAULT_CONFIG, ReaderConfig
from vision.errors import ImageError, SourceError, VisionError
from vision.layout import MatSpec
from vision.reader import Reader, load_image

__all__ = ["DEFAULT_CONFIG", "ImageError", "MatSpec", "Reader", "ReaderConfig", "SourceError",
           "VisionError", "load_image"]
