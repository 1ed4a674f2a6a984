"""Real photographs as textures: paper fibre, table tops, piece artwork.

Every texture here starts from a photograph shipped with scikit-image
(``skimage.data``: brick, grass, gravel, text, page, coffee, chelsea,
astronaut, rocket, coins, ...; BSD-licensed, bundled with the package, no
download). They are cropped, scaled and tinted, and always returned as
float32 *linear* RGB (or a single linear channel) so that the light model can
multiply them with irradiance.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
from skimage import data as skdata

# photographs that look like a picture printed on a piece (colourful, busy)
ARTWORK_PHOTOS = ("coffee", "chelsea", "astronaut", "rocket", "hubble_deep_field",
                  "immunohistochemistry", "retina", "colorwheel")
# grey photographs with a fine, even grain (paper fibre, cloth, gravel)
GRAIN_PHOTOS = ("grass", "gravel", "brick", "moon")
PRINTED_PAGES = ("text", "page", "camera", "coins", "clock")


def srgb_to_linear(values: np.ndarray) -> np.ndarray:
    """sRGB in [0, 1] to linear light (the IEC 61966-2-1 curve)."""
    values = np.asarray(values, dtype=np.float32)
    return np.where(values <= 0.04045, values / 12.92,
                    ((values + 0.055) / 1.055) ** 2.4).astype(np.float32)


def linear_to_srgb(values: np.ndarray) -> np.ndarray:
    """Linear light in [0, 1] to sRGB in [0, 1]."""
    values = np.clip(values, 0.0, 1.0).astype(np.float32)
    return np.where(values <= 0.0031308, values * 12.92,
                    1.055 * np.power(values, 1 / 2.4) - 0.055).astype(np.float32)


def srgb8_to_linear(colour) -> np.ndarray:
    """An sRGB colour (or image) of 0..255 values to linear light."""
    return srgb_to_linear(np.asarray(colour, dtype=np.float32) / 255.0)


@cache
def _photo(name: str) -> np.ndarray:
    image = getattr(skdata, name)()
    if image.dtype == bool:
        image = image.astype(np.uint8) * 255
    if image.ndim == 2:
        image = np.stack([image] * 3, axis=-1)
    image = image[..., :3].astype(np.float32) / 255.0
    return srgb_to_linear(image)


def photo_linear(name: str) -> np.ndarray:
    """One skimage photograph as linear RGB float32 (cached; do not modify)."""
    return _photo(name)


def crop(rng: np.random.Generator, name: str, height: int, width: int,
         zoom: float = 1.0) -> np.ndarray:
    """A random crop of a photo, resized to ``height × width`` (linear RGB).

    ``zoom`` > 1 magnifies (a smaller crop is stretched); the photo is tiled
    with mirroring when the crop would be larger than the photo.
    """
    source = photo_linear(name)
    want_h = max(4, round(height / zoom))
    want_w = max(4, round(width / zoom))
    top = int(rng.integers(0, max(1, source.shape[0] - want_h + 1)))
    left = int(rng.integers(0, max(1, source.shape[1] - want_w + 1)))
    piece = source[top:top + want_h, left:left + want_w]
    if piece.shape[0] < want_h or piece.shape[1] < want_w:  # mirror the photo onward
        piece = _mirror_tile(piece, -(-want_h // piece.shape[0]), -(-want_w // piece.shape[1]))
        piece = piece[:want_h, :want_w]
    return cv2.resize(piece, (width, height), interpolation=cv2.INTER_LINEAR)


def _mirror_tile(image: np.ndarray, reps_y: int, reps_x: int) -> np.ndarray:
    row = [image if i % 2 == 0 else image[:, ::-1] for i in range(reps_x)]
    strip = np.concatenate(row, axis=1)
    rows = [strip if i % 2 == 0 else strip[::-1] for i in range(reps_y)]
    return np.concatenate(rows, axis=0)


def grain(rng: np.random.Generator, height: int, width: int, amplitude: float,
          zoom: float = 1.0, name: str | None = None) -> np.ndarray:
    """A multiplicative grain ``1 + amplitude · n`` from a real photo's fine detail.

    ``n`` is the photo's high-pass (detail finer than ~8 px) with unit
    standard deviation: paper fibre at a small amplitude, cloth at a larger.
    """
    name = name or GRAIN_PHOTOS[int(rng.integers(len(GRAIN_PHOTOS)))]
    grey = crop(rng, name, height, width, zoom).mean(axis=2)
    detail = grey - cv2.GaussianBlur(grey, (0, 0), 4.0)
    detail /= float(detail.std()) + 1e-6
    return (1.0 + amplitude * np.clip(detail, -3, 3)).astype(np.float32)


def tint(image: np.ndarray, colour_linear) -> np.ndarray:
    """Re-colour a photo: its luminance times a linear colour."""
    luminance = image.mean(axis=2, keepdims=True)
    luminance = luminance / (float(luminance.mean()) + 1e-6)
    return (luminance * np.asarray(colour_linear, np.float32)).astype(np.float32)


def wood(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Wood grain: a grass photo stretched along the grain, tinted brown."""
    streaks = crop(rng, "grass", max(8, height // 10), width, 1.0)
    streaks = cv2.resize(streaks, (width, height), interpolation=cv2.INTER_CUBIC)
    luminance = streaks.mean(axis=2)
    luminance = 0.75 + 0.5 * (luminance - luminance.mean()) / (luminance.std() + 1e-6) * 0.35
    yy = np.linspace(0, 1, height, dtype=np.float32)[:, None]
    rings = 0.9 + 0.1 * np.sin(2 * np.pi * (yy * rng.uniform(3, 9) + 0.3 * luminance))
    base = srgb8_to_linear(rng.choice([[150, 100, 60], [120, 80, 50], [185, 140, 95],
                                       [95, 60, 40]]))
    return np.clip(luminance * rings, 0.2, 1.6)[..., None] * base


def cloth(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A table cloth: a woven grain from a real photo over a dyed colour."""
    colour = srgb8_to_linear(rng.choice([[40, 60, 120], [120, 30, 35], [35, 90, 50],
                                         [200, 190, 170], [90, 90, 95], [60, 40, 80]]))
    weave = grain(rng, height, width, rng.uniform(0.08, 0.2), zoom=rng.uniform(1.5, 3))
    period = rng.uniform(3, 6)
    warp = np.sin(np.arange(width, dtype=np.float32) * np.float32(2 * np.pi / period))
    weft = np.sin(np.arange(height, dtype=np.float32) * np.float32(2 * np.pi / period))
    threads = 1 + 0.05 * weft[:, None] * warp[None, :]
    return (weave * threads)[..., None] * colour.astype(np.float32)


def gravel(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A gravel-like stone table from the gravel photo, lightly tinted."""
    stones = crop(rng, "gravel", height, width, rng.uniform(0.8, 2.0))
    return tint(stones, srgb8_to_linear(rng.uniform(110, 190, 3))) * 1.0


def table_top(rng: np.random.Generator, height: int, width: int, textured: bool) -> np.ndarray:
    """The table under the mats: wood, cloth or gravel; or a plain painted top."""
    if not textured:
        colour = srgb8_to_linear(rng.choice([[60, 70, 90], [140, 110, 80], [90, 95, 90],
                                             [170, 165, 150], [40, 45, 60], [110, 60, 50]]))
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        slope = 1 + 0.05 * np.sin(xx / width * rng.uniform(1, 3) + yy / height)
        return (slope[..., None] * colour).astype(np.float32)
    kind = rng.choice(["wood", "cloth", "gravel"])
    return {"wood": wood, "cloth": cloth, "gravel": gravel}[kind](rng, height, width)


def artwork(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Artwork printed on a piece: a photo, stripes, hatching, a gradient or a
    flat colour close to the empty grey in one channel (linear RGB)."""
    kind = rng.choice(["photo", "photo", "stripes", "hatching", "gradient", "near-grey"])
    if kind == "photo":
        name = ARTWORK_PHOTOS[int(rng.integers(len(ARTWORK_PHOTOS)))]
        return crop(rng, name, height, width, rng.uniform(0.5, 2.0))
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    one = srgb8_to_linear(rng.integers(20, 240, 3))
    two = srgb8_to_linear(rng.integers(20, 240, 3))
    if kind == "stripes":
        angle = rng.uniform(0, np.pi)
        period = rng.uniform(6, 30)
        phase = (xx * np.cos(angle) + yy * np.sin(angle)) / period
        mix = (np.sin(2 * np.pi * phase) > 0).astype(np.float32)
    elif kind == "hatching":
        period = rng.uniform(5, 14)
        mix = (((xx + yy) % period < 2) | ((xx - yy) % period < 2)).astype(np.float32)
    elif kind == "gradient":
        mix = (xx / max(1, width - 1) * 0.7 + yy / max(1, height - 1) * 0.3)
    else:
        grey = np.array([205, 205, 205], np.float32)
        channel = int(rng.integers(3))
        near = grey + rng.uniform(-45, 45, 3)
        near[channel] = 205 + rng.uniform(-8, 8)
        one = srgb8_to_linear(np.clip(near, 0, 255))
        mix = np.zeros((height, width), np.float32)
    out = one * (1 - mix[..., None]) + two * mix[..., None]
    return (out * grain(rng, height, width, 0.03)[..., None]).astype(np.float32)


def printed_page(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A printed page or photo print lying on the table (linear RGB)."""
    name = PRINTED_PAGES[int(rng.integers(len(PRINTED_PAGES)))]
    if rng.random() < 0.3:
        name = ARTWORK_PHOTOS[int(rng.integers(len(ARTWORK_PHOTOS)))]
    return crop(rng, name, height, width, rng.uniform(0.8, 1.5))
