"""Benchmark of the camera reader: accuracy per condition, phantoms, and time per image.

Two photo models (see ``docs/vision.md``):

- ``--model render``: the renderer the reader was developed with
  (``vision.render``), as before;
- ``--model realistic``: the independent real-camera model
  (``devkit.vision.realistic``), one set per condition (that condition alone on
  plain light) and one with every condition at once.

``--negatives`` also reads the real photos without the kit shipped in the
scikit-image and matplotlib wheels and counts phantom mats and tags. Every
timing is also given relative to a fixed reference workload timed in the
same run (the machine is shared)::

    .venv/bin/python benchmarks/vision.py --model render --count 200 --seed 1000
    .venv/bin/python benchmarks/vision.py --model realistic --count 60 --seed 90000 --negatives

The reader is given only what ``MATS.json`` would give it (mat numbers, sizes,
kinds); the truth and the rendering parameters stay here.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # not benchmarks/: vision.py shadows

from benchmarks.reference import reference_line, reference_seconds  # noqa: E402
from vision.config import DEFAULT_CONFIG, ReaderConfig  # noqa: E402
from vision.layout import MatSpec  # noqa: E402
from vision.mats import cells_near  # noqa: E402
from vision.reader import Reader  # noqa: E402


def score_mat(truth: dict, seen: dict, counts: Counter, where: str | None = None) -> None:
    """Add one mat's comparison to ``counts``; with ``where`` (e.g. ``"photo 13"``) also
    print each visible tag missed and each false tag."""
    counts["mats"] += 1
    glare = truth.get("glare", ["0" * truth["cols"]] * truth["rows"])
    if not seen.get("found"):
        counts["mats_missed"] += 1
        counts["clear_cells"] += sum(row.count("0") for row in truth["covered"])
        counts["clear_unknown"] += sum(row.count("0") for row in truth["covered"])
        return
    wrong_here = 0
    for true_row, covered_row, glare_row, seen_row in zip(
            truth["cells"], truth["covered"], glare, seen["cells"], strict=True):
        for true_cell, covered, glared, seen_cell in zip(true_row, covered_row, glare_row,
                                                         seen_row, strict=True):
            wrong = seen_cell not in ("?", true_cell)
            if covered == "1":
                counts["covered_cells"] += 1
                counts["covered_wrong"] += wrong
                counts["glare_cells"] += glared == "1"
                counts["glare_wrong"] += wrong and glared == "1"
                wrong_here += wrong
                continue
            counts["clear_cells"] += 1
            counts["clear_wrong"] += wrong
            counts["clear_unknown"] += seen_cell == "?"
            wrong_here += seen_cell != true_cell
    expected = {(t["id"], t["row"], t["col"], t["rotation"]) for t in truth["tags"]}
    visible = {(t["id"], t["row"], t["col"], t["rotation"]) for t in truth["tags"]
               if not t["covered"]}
    found = {(t["id"], t["row"], t["col"], t["rotation"]) for t in seen["tags"]}
    counts["tags_visible"] += len(visible)
    counts["tags_found"] += len(visible & found)
    counts["tags_false"] += len(found - expected)
    if where is not None:
        for kind, tags in (("missed", visible - found), ("false", found - expected)):
            for tag_id, row, col, rotation in sorted(tags):
                print(f"  {where} mat {truth['id']}: {kind} tag {tag_id} at row {row} col {col} "
                      f"turned {rotation}")
    if wrong_here == 0 and not (visible - found) and not (found - expected):
        counts["mats_perfect"] += 1


def lattice_error(truth: dict, params: dict, pose) -> float:
    """The worst distance (cells) between a found mat's cell centres as the reader
    samples them and where they truly lie (realistic model only)."""
    from devkit.vision.realistic import true_image_points

    xs, ys = np.meshgrid(np.arange(truth["cols"]) + 0.5, np.arange(truth["rows"]) + 0.5)
    centres = np.stack([xs.ravel(), ys.ravel()], -1)
    half = np.array([0.5, 0.0])
    cell = np.linalg.norm(true_image_points(truth, params, centres + half)
                          - true_image_points(truth, params, centres - half), axis=1)
    off = np.linalg.norm(pose.to_image(centres) - true_image_points(truth, params, centres),
                         axis=1)
    read = np.ones(len(centres), bool)
    if pose.single_corner is not None:  # a lone marker's mat is read only near it
        spec = MatSpec(truth["id"], truth["rows"], truth["cols"], truth["kind"])
        read = cells_near(spec, pose.single_corner, DEFAULT_CONFIG.single_marker_reach).ravel()
    return float((off[read] / cell[read]).max()) if read.any() else 0.0


def _specs(truth: dict) -> list[MatSpec]:
    return [MatSpec(t["id"], t["rows"], t["cols"], t["kind"]) for t in truth["mats"]]


def _read_timed(item: tuple[np.ndarray, list[MatSpec]]) -> float:
    image, specs = item
    reader = Reader(specs)
    start = time.perf_counter()
    reader.read(image)
    return time.perf_counter() - start


def _all_cores_ms(photos: list) -> float:
    """Wall time per image reading ``photos`` on every core at once (one reader each)."""
    workers = os.cpu_count() or 1
    items = [(photo.image, _specs(photo.truth)) for photo in photos]
    with ProcessPoolExecutor(workers, initializer=cv2.setNumThreads, initargs=(1,)) as pool:
        list(pool.map(_read_timed, items[:workers]))  # start-up
        start = time.perf_counter()
        list(pool.map(_read_timed, items, chunksize=2))
        return (time.perf_counter() - start) / len(items) * 1000


class _TwoMarkersOnly:
    """A detector that reports only each mat's top-left and bottom-right markers, as
    if hands hid the others: no mat shows three, so no lens can be estimated."""

    def __init__(self, detector) -> None:
        self.detector = detector

    def detect(self, image: np.ndarray, wanted=()):
        found = self.detector.detect(image, wanted)
        found.corners = {i: c for i, c in found.corners.items() if i >= 48 or i % 4 in (0, 2)}
        return found


def run(photos_of, count: int, seed: int, keep: bool = False,
        config: ReaderConfig = DEFAULT_CONFIG,
        two_markers: bool = False, show_misses: str | None = None) -> tuple[Counter, list]:
    """Make and read ``count`` photos (``photos_of(rng)``); the tallies, timings and photos.

    ``show_misses`` (the set's name) prints each tag missed or false, by photo index."""
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    counts: Counter = Counter()
    timings, kept, lattice = [], [], []
    for index in range(count):
        photo = photos_of(rng)
        reader = Reader(_specs(photo.truth), config)
        if two_markers:
            reader.detector = _TwoMarkersOnly(reader.detector)
        start = time.perf_counter()
        observation = reader.observe(photo.image)
        timings.append(time.perf_counter() - start)
        counts["photos"] += 1
        for truth, mat in zip(photo.truth["mats"], observation.mats, strict=True):
            score_mat(truth, mat, counts,
                      None if show_misses is None else f"{show_misses} photo {index}")
            if mat["found"] and "mat_to_image" in truth:
                lattice.append(lattice_error(truth, photo.truth["params"],
                                             observation.poses[mat["id"]]))
        if keep:
            kept.append(photo)
    counts["ms_median"] = float(np.median(timings) * 1000)
    counts["ms_p95"] = float(np.percentile(timings, 95) * 1000)
    counts["lattice"] = lattice
    return counts, kept


def accuracy_line(name: str, counts: Counter) -> str:
    """One line of figures for one set."""
    def share(part: str, whole: str) -> float:
        return 100 * counts[part] / max(counts[whole], 1)

    return (f"{name:<11} photos {counts['photos']:>3}  clear {counts['clear_cells']:>5}  "
            f"wrong {share('clear_wrong', 'clear_cells'):.3f} %  "
            f"? {share('clear_unknown', 'clear_cells'):.2f} %  "
            f"covered wrong {counts['covered_wrong']}/{counts['covered_cells']}  "
            f"(glare {counts['glare_wrong']}/{counts['glare_cells']})  "
            f"tags {share('tags_found', 'tags_visible'):.1f} % of {counts['tags_visible']}  "
            f"false tags {counts['tags_false']}  "
            f"mats found {counts['mats'] - counts['mats_missed']}/{counts['mats']}  "
            f"perfect {share('mats_perfect', 'mats'):.1f} %" + _lattice_figures(counts["lattice"]))


def _lattice_figures(errors: list[float]) -> str:
    """Worst cell-centre error per found mat (cells): median, 90th percentile, max."""
    if not errors:
        return ""
    return (f"  lattice median {np.median(errors):.3f} p90 {np.percentile(errors, 90):.3f} "
            f"max {max(errors):.3f}")


def negatives_line() -> str:
    """Phantom mats and tags on the real photos without the kit (scikit-image, matplotlib)."""
    from tests.vision.negatives import load_negative, negative_photo_paths

    reader = Reader([MatSpec(n, 4, 6, "colour" if n % 2 else "tags") for n in range(12)])
    images = phantoms = tags = 0
    for path in negative_photo_paths():
        for frame in load_negative(path):
            for scale in (1, 2):
                image = frame if scale == 1 else cv2.resize(frame, None, fx=2, fy=2)
                found = [mat for mat in reader.read(image) if mat["found"]]
                images += 1
                phantoms += len(found)
                tags += sum(len(mat["tags"]) for mat in found)
    return f"real photos without the kit: {images} images, phantom mats {phantoms}, tags {tags}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("render", "realistic"), default="render")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--per-condition", type=int, default=None, metavar="N",
                        help="realistic: photos per single-condition set (default count/3)")
    parser.add_argument("--negatives", action="store_true",
                        help="also count phantoms on real photos without the kit")
    parser.add_argument("--conditions", default=None, metavar="A,B",
                        help="realistic: only the every-condition set, with these conditions")
    parser.add_argument("--no-lattice", action="store_true",
                        help="do not refine lattices from the grid lines (to compare)")
    parser.add_argument("--two-markers", action="store_true",
                        help="report only each mat's TL and BR markers (no lens estimate)")
    parser.add_argument("--show-misses", action="store_true",
                        help="print each visible tag missed and each false tag, by photo")
    arguments = parser.parse_args()
    config = replace(DEFAULT_CONFIG, lattice_min_markers=99) if arguments.no_lattice else (
        DEFAULT_CONFIG)
    options = {"config": config, "two_markers": arguments.two_markers}
    reference = reference_seconds()
    print(reference_line())
    if arguments.model == "render":
        from vision.render import render_photo

        counts, kept = run(render_photo, arguments.count, arguments.seed, keep=True, **options)
        print(accuracy_line("render", counts))
    else:
        from devkit.vision.realistic import ALL_CONDITIONS, realistic_photo

        conditions = ALL_CONDITIONS
        if arguments.conditions is None:
            single = arguments.per_condition or max(1, arguments.count // 3)
            for offset, condition in enumerate(ALL_CONDITIONS):
                counts, _ = run(lambda rng, c=condition: realistic_photo(rng, (c,)), single,
                                arguments.seed + 1 + offset, **options,
                                show_misses=condition if arguments.show_misses else None)
                print(accuracy_line(condition, counts))
        else:
            conditions = tuple(arguments.conditions.split(","))
        counts, kept = run(lambda rng: realistic_photo(rng, conditions), arguments.count,
                           arguments.seed, keep=True, **options,
                           show_misses="all" if arguments.show_misses else None)
        print(accuracy_line("all at once" if arguments.conditions is None
                            else arguments.conditions, counts))
    all_cores = _all_cores_ms(kept)
    print(f"time per 1080p image, one core: median {counts['ms_median']:.1f} ms "
          f"(= {counts['ms_median'] / 1000 / reference:.3f} x reference), "
          f"p95 {counts['ms_p95']:.1f} ms; all {os.cpu_count()} cores: {all_cores:.1f} ms "
          f"per image (= {all_cores / 1000 / reference:.3f} x reference)")
    if arguments.negatives:
        print(negatives_line())


if __name__ == "__main__":
    main()
