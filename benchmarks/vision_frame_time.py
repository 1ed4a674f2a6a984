"""The reader's time per 1080p frame, against an earlier commit's reader in the same run.

Issue 29 asks that the reader's work per frame grow at most 1.5× while it learns
to read real tables. This renders photoshoot photos (``devkit.vision.photoshoot``,
1920 × 1080) once, exports the ``vision`` package of the commit to compare with
(``git archive``; the reader imports nothing outside ``vision``), and times
``Reader.read`` on the same decoded frames in a child process per tree, one core
(OpenCV's threads off), the trees taking turns round by round so that the
machine's drift falls on both alike. Each figure is also given relative to the
reference workload timed in the same run::

    .venv/bin/python benchmarks/vision_frame_time.py                 # against caa5f1c
    .venv/bin/python benchmarks/vision_frame_time.py --against HEAD~3 --photos 10

``caa5f1c`` is the last commit before the work on issue 29 began (the reader as
the issue measured it).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not benchmarks/: its vision.py would shadow the package

from benchmarks.reference import reference_line, reference_seconds  # noqa: E402
from devkit.vision.photoshoot import photo  # noqa: E402

BASELINE = "caa5f1c"

# Run in a child process with PYTHONPATH set to one tree: the CPU milliseconds of
# Reader.read on each photo (decoded before the clock starts), as JSON.
TIMER = """
import json, sys, time
import cv2
cv2.setNumThreads(1)
from vision.layout import MatSpec
from vision.reader import Reader
photos, repeats = json.loads(sys.argv[1]), int(sys.argv[2])
times = []
for path, mats in photos:
    image = cv2.imread(path)
    reader = Reader([MatSpec(m["id"], m["rows"], m["cols"], m["kind"]) for m in mats])
    reader.read(image)  # the first read builds what a station builds once
    started = time.process_time()
    for _ in range(repeats):
        reader.read(image)
    times.append((time.process_time() - started) / repeats * 1000)
print(json.dumps(times))
"""


def export_vision(revision: str, into: Path) -> Path:
    """The ``vision`` package of ``revision`` under ``into`` (a tree to put on PYTHONPATH)."""
    archive = subprocess.run(["git", "archive", "--format=tar", revision, "vision"], cwd=ROOT,
                             capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"--against {revision}: {archive.stderr.decode().strip()}")
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def shoot(folder: Path, first_seed: int, count: int, mode: str) -> list[tuple[str, list]]:
    """``count`` photos from ``first_seed`` on, as the model's JPEG files: (path, mats) each."""
    photos = []
    for seed in range(first_seed, first_seed + count):
        shot = photo(seed, mode)
        path = folder / f"{mode}-{seed}.jpg"
        path.write_bytes(shot.jpeg)
        photos.append((str(path), shot.mats_json["mats"]))
    return photos


def time_tree(tree: Path, photos: list[tuple[str, list]], repeats: int) -> list[float]:
    done = subprocess.run([sys.executable, "-c", TIMER, json.dumps(photos), str(repeats)],
                          env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, check=False, cwd=tree)
    if done.returncode != 0:
        raise SystemExit(f"the reader of {tree} failed: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default=BASELINE, help=f"commit (default {BASELINE})")
    parser.add_argument("--photos", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0, help="first photoshoot seed")
    parser.add_argument("--mode", choices=("plain", "real"), default="real")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2, help="reads of each photo a round")
    args = parser.parse_args()
    print(reference_line())
    reference = reference_seconds() * 1000
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        trees = {"now": ROOT, args.against: export_vision(args.against, folder / "then")}
        photos = shoot(folder, args.seed, args.photos, args.mode)
        rounds: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(args.rounds):
            for name, tree in trees.items():
                rounds[name].append(statistics.median(time_tree(tree, photos, args.repeats)))
    print(f"{args.photos} photoshoot {args.mode} photos (seeds {args.seed}–"
          f"{args.seed + args.photos - 1}), 1920 × 1080, one core, {args.rounds} rounds")
    medians = {name: statistics.median(values) for name, values in rounds.items()}
    for name, value in medians.items():
        print(f"  {name:>10}: {value:6.1f} ms per frame = {value / reference:4.2f} ref  "
              f"(rounds: {', '.join(f'{v:.1f}' for v in rounds[name])})")
    print(f"  ratio now / {args.against}: {medians['now'] / medians[args.against]:.2f}")


if __name__ == "__main__":
    main()
