"""How long teaching packref a 20-card Small Warehouse deck takes at the table.

Renders a teaching session (``station.catalogue.rehearsal``: the default deck's 20
cards laid one at a time, turned and placed at random, a hand laying and taking
each, on a fixed camera at the visual spec's smallest cell size), learns it with
the reader and the learner exactly as ``packref catalogue learn`` does, and
prints, per card, the camera frames needed and the time they take at 10 frames
a second; and the reader + learner's own time per frame (is 10 fps kept up?),
absolute and relative to a fixed reference workload timed in the same run::

    .venv/bin/python benchmarks/catalogue.py --seed 1 --hand-seconds 1.5

``--hand-seconds``: how long a person's hand is over the mat when laying a card,
and again when taking it away (not measured here: the camera's frames during it
are not counted as teaching frames but are added to the time at the table).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path[0] = str(Path(__file__).resolve().parent.parent)

from rules.catalogue import default_catalogue  # noqa: E402
from station.catalogue.config import CAMERA_FPS, STABLE_FRAMES  # noqa: E402
from station.catalogue.learn import Learner  # noqa: E402
from station.catalogue.pieces import canonical_card  # noqa: E402
from station.catalogue.rehearsal import Rehearsal, laid_card  # noqa: E402
from vision.layout import MatSpec  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.stability import watch  # noqa: E402


def reference_seconds() -> float:
    """A fixed workload (pure Python and numpy) timed now, to put the figures in scale."""
    start = time.process_time()
    total = 0
    for value in range(400_000):
        total += value * value % 7
    matrix = np.arange(250_000, dtype=np.float64).reshape(500, 500)
    for _ in range(5):
        matrix = np.sqrt(matrix @ matrix.T % 1000.0)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hand-seconds", type=float, default=1.5)
    arguments = parser.parse_args()
    reference = reference_seconds()
    spec = MatSpec(0, 8, 10, "colour")
    cards = default_catalogue("small-warehouse")["cards"]
    rng = np.random.default_rng(arguments.seed)
    session = Rehearsal(spec, seed=arguments.seed)
    steps = session.plan([laid_card(card["squares"], spec, rng) for card in cards])
    frames = list(session.frames(steps))
    reader, learner = Reader([spec]), Learner("small-warehouse", spec.id)
    start = time.process_time()
    notes = [note for reading in watch(frames, reader, STABLE_FRAMES, keep_unknown=True)
             for note in learner.see(reading["frame"], reading["mats"])]
    per_frame = (time.process_time() - start) / len(frames)
    right = sum(entry["squares"] == canonical_card(card["squares"])
                for entry, card in zip(learner.entries, cards, strict=False))
    recorded = [note.frame for note in notes if note.kind == "recorded"]
    ready = [note.frame for note in notes if note.kind == "ready"]
    still = [frame - next(i for i in range(frame, -1, -1) if steps[i].what != "piece")
             for frame in recorded]
    clear = [next(r for r in ready if r > frame) - frame - 1 for frame in recorded]
    needed = statistics.median(s + c for s, c in zip(still, clear, strict=True))
    camera_s = needed / CAMERA_FPS
    table_s = camera_s + 2 * arguments.hand_seconds
    print(f"cards learnt right: {right} of {len(cards)} "
          f"(notes: {', '.join(f'{k} {v}' for k, v in sorted(learner.counts.items()))})")
    print(f"frames per card: {statistics.median(still):g} still to record + "
          f"{statistics.median(clear):g} after the hand leaves to see the mat empty "
          f"= {needed:g} frames = {camera_s:.1f} s at {CAMERA_FPS:g} fps")
    print(f"at the table, with {arguments.hand_seconds:g} s of hand to lay and to take each "
          f"card: {table_s:.1f} s a card, {len(cards) * table_s / 60:.1f} min for "
          f"{len(cards)} cards")
    print(f"reader + learner: {per_frame * 1000:.1f} ms a frame "
          f"({per_frame / reference:.3f} reference units; reference {reference:.3f} s); "
          f"{1 / per_frame:.0f} frames/s on one core")


if __name__ == "__main__":
    main()
