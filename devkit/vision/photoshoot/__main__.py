"""Write photos of the kit with their truth, in the vision-reports layout.

    python -m devkit.vision.photoshoot --out DIR --mode plain|real --seeds A:B
    python -m devkit.vision.photoshoot --out DIR --mode real --teach small-warehouse [--count N]

Photos: ``NNN.jpg`` and ``NNN.truth.json`` per seed (A inclusive, B
exclusive), ``mats.json`` for the usual pair of mats (the warehouse mat 0 and
the tags mat 3); a photo with other mats also gets its own ``NNN.mats.json``.
``--teach GAME`` writes a teaching replay folder instead (seed A).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from devkit.vision.photoshoot import photo, teaching_sequence
from devkit.vision.photoshoot.scene import STANDARD_MATS

STANDARD_JSON = {"mats": [spec.to_json() for spec in STANDARD_MATS]}


def parse_seeds(text: str) -> range:
    """``A:B`` (B exclusive) or a single seed ``A``."""
    try:
        if ":" in text:
            first, last = (int(part) for part in text.split(":", 1))
        else:
            first = int(text)
            last = first + 1
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not A:B") from None
    if first < 0 or last <= first:
        raise argparse.ArgumentTypeError(f"{text!r} must be A:B with 0 <= A < B")
    return range(first, last)


def write_photos(out: Path, mode: str, seeds: range) -> int:
    out.mkdir(parents=True, exist_ok=True)
    (out / "mats.json").write_text(json.dumps(STANDARD_JSON) + "\n")
    for seed in seeds:
        shot = photo(seed, mode)
        stem = f"{seed:03d}"
        (out / f"{stem}.jpg").write_bytes(shot.jpeg)
        (out / f"{stem}.truth.json").write_text(json.dumps(shot.truth) + "\n")
        if shot.mats_json != STANDARD_JSON:
            (out / f"{stem}.mats.json").write_text(json.dumps(shot.mats_json) + "\n")
    return len(seeds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devkit.vision.photoshoot",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="folder to write into")
    parser.add_argument("--mode", choices=["plain", "real"], default="real")
    parser.add_argument("--seeds", type=parse_seeds, default=range(0, 10), help="A:B")
    parser.add_argument("--teach", choices=["small-warehouse", "removal"],
                        help="write a teaching replay folder for this game")
    parser.add_argument("--count", type=int, help="with --teach: only the first N components")
    args = parser.parse_args(argv)
    if args.out.exists() and not args.out.is_dir():
        parser.error(f"--out: {args.out} is not a folder")
    if args.teach:
        truth = teaching_sequence(args.teach, args.seeds.start, args.mode, args.out, args.count)
        print(json.dumps({"out": str(args.out), "frames": len(truth["frames"])}))
        return 0
    count = write_photos(args.out, args.mode, args.seeds)
    print(json.dumps({"out": str(args.out), "photos": count, "mode": args.mode}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
