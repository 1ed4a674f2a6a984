"""Real photographs with no kit in them: the sample images shipped inside the
scikit-image and matplotlib wheels (test-only dependencies, read in place, not
copied into the project; their licences are in those packages' data folders).

Every image is returned as a BGR uint8 array, as a camera frame would be.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".tif"}


def _folders() -> list[Path]:
    folders = []
    try:
        import skimage.data

        folders.append(Path(skimage.data.__file__).parent)
    except ImportError:  # pragma: no cover - the dev extra installs it
        pass
    try:
        import matplotlib

        folders.append(Path(matplotlib.get_data_path()) / "sample_data")
    except ImportError:  # pragma: no cover
        pass
    return folders


def negative_photo_paths() -> list[Path]:
    """Every sample image file of the installed scikit-image and matplotlib."""
    return sorted(path for folder in _folders() for path in folder.rglob("*")
                  if path.suffix.lower() in _SUFFIXES)


def as_bgr(picture: np.ndarray) -> np.ndarray:
    """Any 2-D grey, RGB or RGBA array (any integer or float range) as BGR uint8."""
    array = np.asarray(picture)
    if array.dtype != np.uint8:
        array = array.astype(np.float64)
        low, high = float(array.min()), float(array.max())
        array = ((array - low) / max(high - low, 1e-9) * 255).astype(np.uint8)
    if array.ndim == 2:
        return cv2.cvtColor(array, cv2.COLOR_GRAY2BGR)
    if array.ndim == 3 and array.shape[2] == 4:
        return cv2.cvtColor(array, cv2.COLOR_RGBA2BGR)
    return cv2.cvtColor(array[..., :3], cv2.COLOR_RGB2BGR)


def load_negative(path: Path) -> list[np.ndarray]:
    """The frames of one sample image file (a multi-page TIFF or GIF has several)."""
    import imageio.v3 as iio

    picture = iio.imread(path, index=None)
    if picture.ndim == 4 or (picture.ndim == 3 and picture.shape[-1] not in (3, 4)):
        return [as_bgr(frame) for frame in picture]
    return [as_bgr(picture)]
