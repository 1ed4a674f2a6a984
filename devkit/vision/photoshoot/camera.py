"""A pinhole camera over the table, with real lenses' barrel distortion.

World coordinates are millimetres, the table top is the plane Z = 0, Z up.

Lens profiles are real lenses' distortion calibrations from the lensfun
database (https://github.com/lensfun/lensfun, ``data/db/actioncams.xml``; the
lensfun database is © the lensfun contributors, licensed CC BY-SA 3.0). They
use lensfun's ``ptlens`` model, Rd = Ru (a Ru³ + b Ru² + c Ru + 1 − a − b − c),
and ``poly3``, Rd = Ru (1 − k1 + k1 Ru²), in lensfun's normalised radius (1 =
half the image's shorter side). We keep each profile's *shape* and scale its
strength into visual-spec.md's envelope: expressed in the radius normalised
by a focal length of 0.9 × the image width, the relative shrink at any radius
r from a third of the way out to the frame's corner never exceeds that of
k1 = −0.28 (1 + k1 r²).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

WIDTH, HEIGHT = 1920, 1080
SPEC_FOCAL = 0.9 * WIDTH  # visual-spec.md normalises k1 by this focal length
K1_LIMIT = -0.28
RHO_REACH = 1.35  # how far past the frame's corner (undistorted) the maps look

# (name, model, coefficients) from lensfun's database, as published
LENSFUN_PROFILES: tuple[tuple[str, str, tuple[float, ...]], ...] = (
    ("DJI FC6310 (Phantom 4 Pro), 8.8 mm", "ptlens", (0.00961599, -0.0582928, -0.00551691)),
    ("DJI FC2103 (Mavic Air), 4.5 mm", "ptlens", (0.01522, -0.10515, 0.13917)),
    ("Hasselblad L1D-20c (Mavic 2 Pro), 10 mm", "ptlens", (0.013, -0.071, 0.021)),
    ("DJI FC6310R (Phantom 4 RTK), 8.8 mm", "ptlens", (0.0235518, -0.115701, 0.0349985)),
    ("DJI FC3411 (Air 2S), 8.4 mm", "ptlens", (0.014878, -0.0317787, -0.000777849)),
    ("GoPro HERO4 Black, 3 mm", "poly3", (-0.03012,)),
    ("GoPro Hero3+ Black, 15 mm equiv.", "ptlens", (0.01049, 0.01663, -0.40901)),
    ("GoPro HERO10 Black, 2.7 mm", "ptlens", (0.04608, -0.13007, -0.21816)),
)


def _lensfun_ratio(model: str, coefficients: tuple[float, ...], r: np.ndarray) -> np.ndarray:
    """Rd / Ru of a lensfun profile, relative to its magnification at the centre."""
    if model == "poly3":
        (k1,) = coefficients
        return (1 - k1 + k1 * r * r) / (1 - k1)
    a, b, c = coefficients
    centre = 1 - a - b - c
    return (a * r ** 3 + b * r ** 2 + c * r + centre) / centre


@dataclass(frozen=True)
class Lens:
    """A radial distortion: Rd = Ru (1 + delta(Ru)), radii in units of SPEC_FOCAL."""

    name: str
    model: str
    coefficients: tuple[float, ...]
    scale: float  # how much of the real profile's deviation is kept

    def delta(self, rho: np.ndarray) -> np.ndarray:
        if self.scale == 0:
            return np.zeros_like(rho)
        r = rho * SPEC_FOCAL / (min(WIDTH, HEIGHT) / 2)
        return self.scale * (_lensfun_ratio(self.model, self.coefficients, r) - 1)

    def k1_k2(self) -> tuple[float, float]:
        """The least-squares (k1, k2) of 1 + k1 r² + k2 r⁴ over the frame."""
        rho = np.linspace(0.02, corner_rho(), 64)
        design = np.stack([rho ** 2, rho ** 4], axis=1)
        k, *_ = np.linalg.lstsq(design, self.delta(rho), rcond=None)
        return float(k[0]), float(k[1])


NO_LENS = Lens("ideal", "poly3", (0.0,), 0.0)


def corner_rho() -> float:
    return float(np.hypot(WIDTH / 2, HEIGHT / 2) / SPEC_FOCAL)


def envelope_k1(model: str, coefficients: tuple[float, ...]) -> float:
    """The strongest barrel (most negative k1-equivalent) of a profile at scale 1."""
    # from a third of the way out: nearer the centre a profile's odd terms make
    # delta / r² large while the displacement itself is a fraction of a pixel
    rho = np.linspace(corner_rho() / 3, corner_rho() * 1.05, 200)
    lens = Lens("", model, coefficients, 1.0)
    return float(np.min(lens.delta(rho) / rho ** 2))


def barrel_profiles() -> list[tuple[str, str, tuple[float, ...]]]:
    """The profiles that bow straight lines outward (barrel) within the frame."""
    return [p for p in LENSFUN_PROFILES if envelope_k1(p[1], p[2]) < -1e-3]


def pick_lens(rng: np.random.Generator, strength: float) -> Lens:
    """A real lens's profile scaled so its k1-equivalent is ``strength`` × the limit."""
    profiles = barrel_profiles()
    for index in rng.permutation(len(profiles)):
        name, model, coefficients = profiles[int(index)]
        scale = strength * K1_LIMIT / envelope_k1(model, coefficients)
        lens = Lens(name, model, coefficients, float(scale))
        if _monotonic(lens):
            return lens
    return NO_LENS


def _monotonic(lens: Lens) -> bool:
    """Rd grows with Ru over the whole view (a real lens never folds the image)."""
    rho_u = np.linspace(0, corner_rho() * RHO_REACH, 2048)
    return bool(np.all(np.diff(rho_u * (1 + lens.delta(rho_u))) > 0))


@lru_cache(maxsize=2)  # 16 MB each: a sequence reuses one lens, photos rarely repeat one
def _raw_maps(lens: Lens) -> tuple[np.ndarray, np.ndarray]:
    """For every output (distorted) pixel, where it comes from undistorted."""
    rho_u = np.linspace(0, corner_rho() * RHO_REACH, 4096)
    rho_d = rho_u * (1 + lens.delta(rho_u))
    if np.any(np.diff(rho_d) <= 0):
        raise ValueError(f"lens {lens.name}: distortion not monotonic in the frame")
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    dx, dy = xx - WIDTH / 2 + 0.5, yy - HEIGHT / 2 + 0.5
    rd = np.hypot(dx, dy) / SPEC_FOCAL
    ru = np.interp(rd, rho_d, rho_u).astype(np.float32)
    ratio = np.where(rd > 0, ru / np.maximum(rd, 1e-9), 1).astype(np.float32)
    return dx * ratio + WIDTH / 2 - 0.5, dy * ratio + HEIGHT / 2 - 0.5


@lru_cache(maxsize=64)
def margin(lens: Lens) -> int:
    """How far (px, a multiple of 4) beyond the photo's edge the lens looks."""
    if lens.scale == 0:
        return 0
    map_x, map_y = _raw_maps(lens)
    reach = max(-map_x.min(), map_x.max() - WIDTH, -map_y.min(), map_y.max() - HEIGHT, 0)
    return int(np.ceil((reach + 4) / 4) * 4)


@lru_cache(maxsize=2)
def _undistort_maps(lens: Lens) -> tuple[np.ndarray, np.ndarray]:
    """The maps into a canvas rendered ``margin`` px wider on every side."""
    map_x, map_y = _raw_maps(lens)
    return map_x + margin(lens), map_y + margin(lens)


def canvas_size(lens: Lens) -> tuple[int, int]:
    """(width, height) of the undistorted canvas a lens needs."""
    return WIDTH + 2 * margin(lens), HEIGHT + 2 * margin(lens)


def canvas_camera(camera: Camera) -> Camera:
    """The same camera with its principal point moved to the canvas's centre."""
    return Camera(camera.centre, camera.rotation, camera.focal, camera.lens,
                  margin(camera.lens))


def distort_image(lens: Lens, image: np.ndarray) -> np.ndarray:
    """Resample an undistorted render as the lens bends it (same size)."""
    if lens.scale == 0:
        return image
    map_x, map_y = _undistort_maps(lens)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=4)
def _coarse_maps(lens: Lens, step: int) -> tuple[np.ndarray, np.ndarray]:
    map_x, map_y = _undistort_maps(lens)
    first = step // 2
    offset = (step - 1) / 2
    return ((map_x[first::step, first::step] - offset) / step).copy(), \
        ((map_y[first::step, first::step] - offset) / step).copy()


def distort_coarse(lens: Lens, image: np.ndarray, step: int) -> np.ndarray:
    """The same for an image on a grid ``step`` times coarser than the photo."""
    if lens.scale == 0:
        return image
    map_x, map_y = _coarse_maps(lens, step)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def distort_points(lens: Lens, points: np.ndarray) -> np.ndarray:
    """Undistorted pixel positions (N, 2) to where the lens puts them."""
    centre = np.array([WIDTH / 2 - 0.5, HEIGHT / 2 - 0.5])
    offset = points - centre
    rho = np.hypot(offset[:, 0], offset[:, 1]) / SPEC_FOCAL
    return centre + offset * (1 + lens.delta(rho))[:, None]


@dataclass
class Camera:
    """A pinhole camera: centre (mm), rotation (rows: camera axes in world), focal (px)."""

    centre: np.ndarray
    rotation: np.ndarray
    focal: float
    lens: Lens = NO_LENS
    offset: int = 0  # a canvas wider than the photo by this on every side

    @property
    def matrix(self) -> np.ndarray:
        return np.array([[self.focal, 0, WIDTH / 2 - 0.5 + self.offset],
                         [0, self.focal, HEIGHT / 2 - 0.5 + self.offset], [0, 0, 1]])

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to undistorted pixels (N, 2)."""
        cam = (np.asarray(points, float) - self.centre) @ self.rotation.T
        pix = cam @ self.matrix.T
        return pix[:, :2] / pix[:, 2:3]

    def image_points(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to pixels of the photo (with the lens's bending)."""
        return distort_points(self.lens, self.project(points))

    def plane_homography(self, height: float = 0.0) -> np.ndarray:
        """Table-parallel plane Z = height, (X, Y, 1) to undistorted pixels."""
        r = self.rotation
        t = -r @ self.centre
        columns = np.stack([r[:, 0], r[:, 1], r[:, 2] * height + t], axis=1)
        return self.matrix @ columns


def look_at(target: np.ndarray, distance: float, tilt_deg: float, azimuth_deg: float,
            roll_deg: float, focal: float, lens: Lens = NO_LENS) -> Camera:
    """A camera ``distance`` mm from ``target``, ``tilt`` off vertical, turned ``roll``."""
    tilt, azimuth, roll = np.radians([tilt_deg, azimuth_deg, roll_deg])
    direction = np.array([np.sin(tilt) * np.cos(azimuth), np.sin(tilt) * np.sin(azimuth),
                          np.cos(tilt)])
    centre = np.asarray(target, float) + distance * direction
    z = -direction
    hint = np.array([np.cos(roll), np.sin(roll), 0.0])
    x = hint - hint.dot(z) * z
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    return Camera(centre, np.stack([x, y, z]), focal, lens)
