"""The vision package's exceptions.

Example::

    >>> from vision.errors import ImageError, VisionError
    >>> issubclass(ImageError, VisionError)
    True
"""


class VisionError(Exception):
    """Base class of every error raised by :mod:`vision`."""


class ImageError(VisionError):
    """An image that cannot be read (missing, not an image, empty)."""


class SourceError(VisionError):
    """A camera or replay that cannot be opened or read."""


class KitError(VisionError):
    """A kit that cannot be laid out (e.g. more mats than mat numbers)."""


class CalibrationError(VisionError):
    """An empty-board calibration photo that cannot be used; ``mat_id`` says for which mat."""

    def __init__(self, mat_id: int, message: str) -> None:
        super().__init__(f"mat {mat_id}: {message}")
        self.mat_id = mat_id


class CalibrationFileError(VisionError):
    """A ``camera.json`` that cannot be used; ``place`` is the JSON path of the fault."""

    def __init__(self, place: str, message: str) -> None:
        super().__init__(f"{place}: {message}")
        self.place = place
        self.message = message


class CameraCalibrationError(VisionError):
    """Too few usable views of the kit to calibrate a camera."""
