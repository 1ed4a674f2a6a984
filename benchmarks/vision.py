"""Benchmark of the camera reader on freshly rendered photos.

Renders ``--count`` synthetic overhead photos (``vision.render``), reads each
with one :class:`vision.reader.Reader` on one core, and compares with the truth::

    .venv/bin/python benchmarks/vision.py --count 200 --seed 1000

The reader is given only what ``MATS.json`` would give it (mat numbers, sizes,
kinds); the truth and the rendering parameters stay here.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # not benchmarks/: vision.py shadows

from vision.layout import MatSpec  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.render import render_photo  # noqa: E402


def score_mat(truth: dict, seen: dict, counts: Counter) -> None:
    """Add one mat's comparison to ``counts``."""
    counts["mats"] += 1
    if not seen.get("found"):
        counts["mats_missed"] += 1
        counts["clear_cells"] += sum(row.count("0") for row in truth["covered"])
        counts["clear_unknown"] += sum(row.count("0") for row in truth["covered"])
        return
    wrong_here = 0
    for true_row, covered_row, seen_row in zip(truth["cells"], truth["covered"], seen["cells"],
                                                strict=True):
        for true_cell, covered, seen_cell in zip(true_row, covered_row, seen_row, strict=True):
            if covered == "1":
                counts["covered_cells"] += 1
                counts["covered_wrong"] += seen_cell not in ("?", true_cell)
                wrong_here += seen_cell not in ("?", true_cell)
                continue
            counts["clear_cells"] += 1
            counts["clear_wrong"] += seen_cell not in ("?", true_cell)
            counts["clear_unknown"] += seen_cell == "?"
            wrong_here += seen_cell != true_cell
    expected = {(t["id"], t["row"], t["col"], t["rotation"]) for t in truth["tags"]}
    visible = {(t["id"], t["row"], t["col"], t["rotation"]) for t in truth["tags"]
               if not t["covered"]}
    found = {(t["id"], t["row"], t["col"], t["rotation"]) for t in seen["tags"]}
    counts["tags_visible"] += len(visible)
    counts["tags_found"] += len(visible & found)
    counts["tags_false"] += len(found - expected)
    missed_tags = len(visible - found)
    if wrong_here == 0 and missed_tags == 0 and not (found - expected):
        counts["mats_perfect"] += 1


def run(count: int, seed: int) -> Counter:
    """Render and read ``count`` photos; the tallies and timings."""
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    counts: Counter = Counter()
    timings = []
    decode_timings = []
    for _ in range(count):
        photo = render_photo(rng)
        truths = photo.truth["mats"]
        specs = [MatSpec(t["id"], t["rows"], t["cols"], t["kind"]) for t in truths]
        reader = Reader(specs)
        start = time.perf_counter()
        seen = reader.read(photo.image)
        timings.append(time.perf_counter() - start)
        # What a camera frame saved as a JPEG file costs on top: decoding it.
        encoded = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
        start = time.perf_counter()
        cv2.imdecode(encoded, cv2.IMREAD_COLOR)
        decode_timings.append(time.perf_counter() - start)
        counts["photos"] += 1
        for truth, mat in zip(truths, seen, strict=True):
            score_mat(truth, mat, counts)
    counts["ms_median"] = float(np.median(timings) * 1000)
    counts["ms_p95"] = float(np.percentile(timings, 95) * 1000)
    counts["ms_mean"] = float(np.mean(timings) * 1000)
    with_decoding = np.add(timings, decode_timings)
    counts["ms_decoded_median"] = float(np.median(with_decoding) * 1000)
    counts["ms_decoded_p95"] = float(np.percentile(with_decoding, 95) * 1000)
    return counts


def report(counts: Counter) -> list[str]:
    """The figures, one per line, with their aims."""
    def share(part: str, whole: str) -> float:
        return 100 * counts[part] / max(counts[whole], 1)

    return [
        f"photos: {counts['photos']}, mats: {counts['mats']}, "
        f"clear cells: {counts['clear_cells']}, covered cells: {counts['covered_cells']}",
        f"cell error rate (wrong class, clear cells): {share('clear_wrong', 'clear_cells'):.3f} %"
        "  (aim <= 0.1 %)",
        f"'?' on clear cells: {share('clear_unknown', 'clear_cells'):.3f} %  (aim <= 0.5 %)",
        f"wrong class on covered cells: {counts['covered_wrong']} of {counts['covered_cells']}"
        "  (aim 0)",
        f"tag recall: {share('tags_found', 'tags_visible'):.2f} % of {counts['tags_visible']}"
        "  (aim >= 99.5 %)",
        f"false tags: {counts['tags_false']}  (aim 0)",
        f"mats read perfectly: {share('mats_perfect', 'mats'):.1f} %  (aim >= 95 %);"
        f" mats not found: {counts['mats_missed']}",
        f"time per 1080p image, one core: median {counts['ms_median']:.1f} ms, "
        f"mean {counts['ms_mean']:.1f} ms, p95 {counts['ms_p95']:.1f} ms  (aim <= 50 ms)",
        f"the same from a JPEG file (decoding included): median "
        f"{counts['ms_decoded_median']:.1f} ms, p95 {counts['ms_decoded_p95']:.1f} ms",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    arguments = parser.parse_args()
    print("\n".join(report(run(arguments.count, arguments.seed))))


if __name__ == "__main__":
    main()
