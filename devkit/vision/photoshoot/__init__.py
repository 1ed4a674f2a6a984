"""photoshoot: a third image model of a real overhead camera over the printed kit.

Written apart from packref's own renderers, from visual-spec.md alone, with
other techniques: real photographs as textures (``skimage.data``), light in
linear units from area lamps (inverse-square, Lambertian, soft shadows, a
specular lobe on glossy print), real lenses' distortion profiles (lensfun),
hands and arms as 3-D capsules. Validation only: it is not part of the wheel.

    photo(seed, "plain" | "real") -> Photo(image, truth, mats_json, jpeg)
    teaching_sequence(...)          -> a replay folder for `packref catalogue learn`
    teach_copy(game, seed, mode)    -> a person teaching packref in a closed loop (a replay too)
    table_frames(states, ...)       -> a replay folder of a game being played

See docs/vision-validation.md.
"""

from __future__ import annotations

import numpy as np

from devkit.vision.photoshoot.render import Frame, Photo, render
from devkit.vision.photoshoot.scene import sample_contents, sample_hands, sample_setup
from devkit.vision.photoshoot.sequences import (
    Pacing,
    table_frames,
    teaching_sequence,
    write_replay,
)

__all__ = ["Pacing", "Photo", "Teacher", "TeachingRun", "photo", "table_frames", "teach_copy",
           "teaching_sequence", "write_replay"]

MODE_STREAMS = {"plain": 0, "real": 1}
TEACHING = ("Teacher", "TeachingRun", "teach_copy")


def __getattr__(name: str) -> object:
    """The closed-loop teacher, imported when asked for: it runs packref's reader and
    learner, which the image model itself never needs."""
    if name in TEACHING:
        from devkit.vision.photoshoot import teaching

        return getattr(teaching, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def photo(rng: np.random.Generator | int, mode: str = "real", name: str | None = None) -> Photo:
    """One overhead photo of the kit, with what is really on each mat.

    ``rng`` is a numpy Generator or a seed (a seed gives the same photo every
    time, and ``plain`` and ``real`` draw different scenes from one seed).
    """
    if mode not in MODE_STREAMS:
        raise ValueError(f"mode must be plain or real, not {mode!r}")
    seed = rng if isinstance(rng, (int, np.integer)) else None
    if seed is not None:
        rng = np.random.default_rng([int(seed), MODE_STREAMS[mode], 0x9407])
    setup = sample_setup(rng, mode)
    frame = Frame(sample_contents(rng, setup), sample_hands(rng, setup))
    if name is None:
        name = f"{seed:03d}.jpg" if seed is not None else "photo.jpg"
    for _ in range(3):
        shot = render(setup, frame, rng, name)
        if _three_markers_clear(shot.truth):
            break
        # visual-spec.md: a reader may lose one corner marker of a mat, not two;
        # a glint that washes out two is dimmed (the print turned a little matter)
        setup.glare_peak /= 2
        setup.conditions["glare_peak"] = round(setup.glare_peak, 2)
    return shot


def _three_markers_clear(truth: dict) -> bool:
    hidden = truth["conditions"]["hidden_markers"]
    return all(sum(m // 4 == mat["id"] for m in hidden) <= 1 for mat in truth["mats"])
