"""How long teaching packref a 20-card Small Warehouse deck takes at the table.

Plays a teaching session (``devkit.station.rehearsal``): the default deck's 20
cards laid one at a time, turned and placed at random, on a camera fixed at the
visual spec's smallest cell size, photographed by the independent real-camera
model (``devkit.vision.realistic``: casts, table textures and clutter, shadows,
vignetting, a lamp's glare, hands, a wide lens; ``--model render`` for the
project's renderer). The person does what packref says: keeps a card still
until it is recorded, lays it again when told it cannot be read, takes it away
and waits for the empty mat, moving what hides the mat when told. The frames
are read by the reader and the learner exactly as ``packref catalogue learn``
reads them. Prints per card the camera frames needed (median and max) and the
time at the table at 10 frames a second; and the reader + learner's time per
frame, absolute and relative to a fixed reference workload timed in the same
run::

    .venv/bin/python benchmarks/catalogue.py --seed 1 --hand-seconds 1.5

``--hand-seconds``: how long a person's hand is over the mat each time it lays
or takes a card (an assumption, not measured: those frames are not counted as
frames needed, the time is added to the time at the table).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.reference import reference_seconds  # noqa: E402
from devkit.station.rehearsal import Rehearsal, laid_card, teach  # noqa: E402
from rules.catalogue import default_catalogue  # noqa: E402
from station.catalogue.config import CAMERA_FPS  # noqa: E402
from station.catalogue.pieces import canonical_card  # noqa: E402
from vision.layout import MatSpec  # noqa: E402


def spread(values: list[float]) -> str:
    return f"median {statistics.median(values):g}, max {max(values):g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hand-seconds", type=float, default=1.5)
    parser.add_argument("--model", choices=("realistic", "render"), default="realistic")
    arguments = parser.parse_args()
    from devkit.vision.realistic import ALL_CONDITIONS

    reference = reference_seconds()
    spec = MatSpec(0, 8, 10, "colour")
    cards = default_catalogue("small-warehouse")["cards"]
    rng = np.random.default_rng(arguments.seed)
    conditions = ALL_CONDITIONS if arguments.model == "realistic" else None
    session = Rehearsal(spec, seed=arguments.seed, conditions=conditions)
    start = time.process_time()
    lesson = teach(session, [laid_card(card["squares"], spec, rng) for card in cards],
                   "small-warehouse")
    seconds = time.process_time() - start
    learner, log = lesson.learner, lesson.teacher.log
    right = sum(entry["squares"] == canonical_card(card["squares"])
                for entry, card in zip(learner.entries, cards, strict=False))
    frames = [piece.still_frames for piece in log]
    tries = [piece.tries for piece in log]
    at_table = [piece.still_frames / CAMERA_FPS + piece.hands * arguments.hand_seconds
                for piece in log]
    print(f"model {arguments.model}, seed {arguments.seed}: cards learnt right {right} of "
          f"{len(cards)} in {len(learner.entries)} recorded (notes: "
          f"{', '.join(f'{k} {v}' for k, v in sorted(learner.counts.items()))})")
    print(f"frames needed per card (still frames, every try and the empty mat after): "
          f"{spread(frames)}; tries per card: {spread(tries)}")
    print(f"at the table, {CAMERA_FPS:g} frames a second and {arguments.hand_seconds:g} s of "
          f"hand each time a card is laid or taken: {spread([round(s, 1) for s in at_table])} "
          f"s a card, {sum(at_table) / 60:.1f} min for {len(cards)} cards")
    print(f"photos made and read: {lesson.frames} frames in {seconds:.0f} s of CPU "
          f"({seconds / lesson.frames * 1000:.0f} ms a frame, photo model included; "
          f"{seconds / lesson.frames / reference:.3f} reference units; "
          f"reference {reference:.3f} s)")


if __name__ == "__main__":
    main()
