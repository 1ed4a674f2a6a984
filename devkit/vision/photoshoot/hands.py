"""Hands and arms reaching over the table, and things beside it that cast shadows.

A hand is a handful of 3-D capsules (forearm, palm, fingers, thumb) in
millimetres above the table, pointing from where the person sits (outside the
photo) towards a target on a mat. They are drawn by projecting every outline
point with the camera, and their shadows by projecting the same points from
each lamp sample onto the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from devkit.vision.photoshoot import textures

SKIN_TONES = ((255, 219, 172), (241, 194, 125), (224, 172, 105), (198, 134, 66),
              (141, 85, 36), (94, 62, 42), (232, 190, 160))
POSES = ("flat", "point", "pinch", "fist")  # how many fingers are stretched out


@dataclass
class Part:
    """One capsule of a hand: outline points (N, 3) and its half-width in mm."""

    outline: np.ndarray
    radius: float
    sleeve: bool = False


@dataclass
class Hand:
    parts: list[Part]
    skin: np.ndarray  # linear RGB
    sleeve: np.ndarray
    target: tuple[float, float]
    pose: str
    lift: float = 0.0  # mm above the table at the fingertips

    def outlines(self) -> list[np.ndarray]:
        return [part.outline for part in self.parts]


@dataclass
class Caster:
    """Something beside the table (a person, a bottle) seen only by its shadow."""

    outline: np.ndarray  # (N, 3)


@dataclass
class HandPlan:
    """Where a hand comes from and what it reaches for (table mm)."""

    entry: np.ndarray
    target: np.ndarray
    pose: str = "flat"
    lift: float = 30.0


def capsule(start: np.ndarray, end: np.ndarray, radius: float, z_start: float,
            z_end: float, steps: int = 10) -> np.ndarray:
    """The outline of a capsule from ``start`` to ``end`` (2-D), heights ramping."""
    axis = end - start
    length = float(np.linalg.norm(axis)) or 1.0
    along = axis / length
    across = np.array([-along[1], along[0]])
    angles_end = np.linspace(-np.pi / 2, np.pi / 2, steps)
    angles_start = np.linspace(np.pi / 2, 3 * np.pi / 2, steps)
    points, heights = [], []
    for angle in angles_end:
        points.append(end + radius * (np.cos(angle) * along + np.sin(angle) * across))
        heights.append(z_end)
    for angle in angles_start:
        points.append(start + radius * (np.cos(angle) * along + np.sin(angle) * across))
        heights.append(z_start)
    return np.column_stack([np.array(points), np.array(heights)])


def make_hand(rng: np.random.Generator, plan: HandPlan) -> Hand:
    """A left or right hand of plausible size, reaching from entry to target."""
    size = rng.uniform(0.85, 1.15)
    direction = plan.target - plan.entry
    direction = direction / (np.linalg.norm(direction) or 1.0)
    across = np.array([-direction[1], direction[0]]) * rng.choice([-1, 1])
    finger_len = 75 * size
    palm_len, palm_half = 85 * size, 40 * size
    tip = plan.lift
    wrist_z = tip + rng.uniform(20, 60)
    wrist = plan.target - direction * (palm_len + 0.8 * finger_len)
    reach_back = plan.entry - direction * 400  # well beyond the photo's edge
    parts = [Part(capsule(reach_back, wrist, 33 * size, wrist_z + 120, wrist_z), 33 * size,
                  sleeve=False)]
    sleeve_end = wrist - direction * rng.uniform(60, 200)
    parts.append(Part(capsule(reach_back, sleeve_end, 42 * size, wrist_z + 140,
                              wrist_z + 15), 42 * size, sleeve=True))
    palm_start = wrist + direction * 10 * size
    palm_end = wrist + direction * (palm_len - palm_half * 0.6)
    parts.append(Part(capsule(palm_start, palm_end, palm_half, wrist_z, (wrist_z + tip) / 2),
                      palm_half))
    lengths = {"flat": [1.0, 1.0, 1.0, 1.0], "point": [1.0, 0.35, 0.3, 0.3],
               "pinch": [0.6, 0.45, 0.4, 0.35], "fist": [0.3, 0.3, 0.3, 0.3]}[plan.pose]
    knuckles = wrist + direction * palm_len
    for index, share in enumerate(lengths):
        offset = (index - 1.5) * 19 * size
        spread = np.radians((index - 1.5) * rng.uniform(2, 8))
        turned = _rotate(direction, spread)
        base = knuckles + across * offset - direction * 8
        length = finger_len * share * (0.85 if index in (0, 3) else 1.0) * rng.uniform(0.9, 1.1)
        parts.append(Part(capsule(base, base + turned * length, 8.5 * size, wrist_z - 5,
                                  tip), 8.5 * size))
    thumb_base = wrist + direction * 25 * size - across * 32 * size
    spread = np.radians(rng.uniform(30, 60))  # the thumb points out on its own side
    thumb_dir = direction * np.cos(spread) - across * np.sin(spread)
    parts.append(Part(capsule(thumb_base, thumb_base + thumb_dir * 60 * size, 10 * size,
                              wrist_z, tip + 10), 10 * size))
    skin = textures.srgb8_to_linear(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))])
    sleeve = textures.srgb8_to_linear(rng.integers(20, 230, 3))
    return Hand(parts, skin, sleeve, (float(plan.target[0]), float(plan.target[1])),
                plan.pose, tip)


def _rotate(vector: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * vector[0] - s * vector[1], s * vector[0] + c * vector[1]])


def person_caster(rng: np.random.Generator, lamp: np.ndarray, shadow_at: np.ndarray) -> Caster:
    """Head and shoulders (or a bottle, a lamp arm) between a lamp and the table."""
    height = rng.uniform(0.35, 0.65) * lamp[2]
    along = 1 - height / lamp[2]
    centre = lamp[:2] + (shadow_at - lamp[:2]) * along
    kind = rng.choice(["head", "bottle", "shoulder"])
    radius = {"head": (90, 110), "bottle": (35, 45), "shoulder": (200, 120)}[kind]
    angle = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    turn = rng.uniform(0, np.pi)
    x = radius[0] * np.cos(angle)
    y = radius[1] * np.sin(angle)
    xy = np.column_stack([x * np.cos(turn) - y * np.sin(turn),
                          x * np.sin(turn) + y * np.cos(turn)]) + centre
    return Caster(np.column_stack([xy, np.full(len(xy), height)]))


def shadow_on_table(outline: np.ndarray, lamp: np.ndarray) -> np.ndarray | None:
    """Where an outline's shadow falls on Z = 0 from a point lamp (None if above it)."""
    below = lamp[2] - outline[:, 2]
    if np.any(below <= 1):
        return None
    t = lamp[2] / below
    return lamp[:2] + (outline[:, :2] - lamp[:2]) * t[:, None]
