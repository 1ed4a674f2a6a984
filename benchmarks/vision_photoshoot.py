"""`packref vision read` on photos from the photoshoot image model, against their truth.

Run: .venv/bin/python benchmarks/vision_photoshoot.py [--seeds 0:40] [--modes plain,real]
     .venv/bin/python benchmarks/vision_photoshoot.py --seeds 0:1 --modes real --teach [N]
                      [--teach-seeds 0:3] [--fixed]
     .venv/bin/python benchmarks/vision_photoshoot.py --sealed
     .venv/bin/python benchmarks/vision_photoshoot.py --folder ../shared/vision-reports

The photos come from ``devkit/vision/photoshoot`` (a model of a real overhead
camera over the printed kit, written apart from the reader: real photographs
as textures, area lamps in linear light, real lenses' distortion, hands and
arms; see docs/vision-validation.md). The reader is run as a black box, a
subprocess of ``packref vision read`` over all photos of a mode at once (per
MATS.json), and only its documented output (contracts.md §6) is scored:

- **clear `?`** / **clear wrong**: of the cells in plain view (truth
  ``occluded`` = ``.``) on mats that were found, the share read ``?`` (and how
  many of those touch a hidden cell, edge or corner) and the share read as
  another class;
- **covered guessed**: of the cells partly or mostly hidden (``p``/``o``), the
  share read as a wrong class rather than ``?`` (a reader must not guess);
- **found**: mats found, of the mats in the photos (every mat is in view);
- **perfect**: mats found with every clear cell right, every tag in plain view
  found (id, cell, rotation) and no false tag;
- **>10 % `?`**: found mats where more than a tenth of the clear cells are ``?``;
- **tag recall**: tags on clear cells found with the right id, cell and
  rotation; **false tags**: tags reported that are not on the mat at that cell
  and rotation.

``--folder DIR`` scores photos someone else made instead: each ``NAME.jpg`` (or
``.png``) with its ``NAME.truth.json`` beside it (the same truth layout) and the
folder's ``mats.json``, reported per mode by the name's prefix (``plain-``,
``real-``; any other: ``folder``), every photo's figures listed. The failure
reports of ``../shared/vision-reports`` are scored so.

Seeds: the development set is 0–9999 (``--seeds A:B``, B exclusive). The
sealed held-out set, 1000000–1000099 (``--sealed``), is for judging a reader
change once, at the end: a reader is never tuned on it and it is never looked
at photo by photo. The reader's CPU time (the child process's, from
``resource``) is printed per photo and in reference units (benchmarks/reference.py).

``--teach`` also teaches both games per mode (seed A, or each seed of
``--teach-seeds``) in a closed loop (``teach_copy``): a person lays each
component and does what the learner, reading the frames as they are shot as
``packref catalogue learn`` does, says (lays it again elsewhere when told,
takes it away once recorded). Printed per game: components laid, recorded,
right (one of those laid: squares or shape up to a turn, tag id, each matched
once; "in order" when the right ones were recorded in the order laid) and
wrong, tries per component (median, max), frames shot and their CPU time
(photo model and reader); then whether ``packref catalogue learn`` on the
frames written gives the same catalogue, the learner's notes by kind, and why
any component was not recorded. ``--fixed`` runs the fixed replay instead
(``teaching_sequence``: each component laid once, held still, taken away).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the checkout, not benchmarks/: benchmarks/vision.py would shadow the vision package that
# the closed-loop teacher (--teach) runs
sys.path[0] = str(ROOT)

from benchmarks.reference import reference_line, reference_seconds  # noqa: E402
from devkit.vision.photoshoot import photo, teach_copy, teaching_sequence  # noqa: E402

SEALED = range(1_000_000, 1_000_100)
READER = [sys.executable, "-c", "import sys; from station.cli import main; sys.exit(main())"]


@dataclass
class Score:
    photos: int = 0
    mats: int = 0
    found: int = 0
    perfect: int = 0
    many_unknown: int = 0
    clear: int = 0
    clear_unknown: int = 0
    clear_wrong: int = 0
    clear_unknown_near: int = 0  # of clear_unknown: next to a hidden cell (8-neighbourhood)
    covered: int = 0
    covered_wrong: int = 0
    tags: int = 0
    tags_found: int = 0
    false_tags: int = 0
    errors: int = 0
    examples: dict = field(default_factory=lambda: defaultdict(list))

    def add_mat(self, name: str, truth: dict, read: dict | None) -> None:
        self.mats += 1
        visible_tags = [t for t in truth["tags"] if truth["occluded"][t["row"]][t["col"]] == "."]
        self.tags += len(visible_tags)
        clear = sum(line.count(".") for line in truth["occluded"])
        if not read or not read.get("found"):
            self.examples["not found"].append(f"{name} mat {truth['id']}")
            return
        self.found += 1
        unknown = wrong = 0
        occluded = truth["occluded"]
        rows = zip(truth["cells"], read["cells"], occluded, strict=False)
        for r, (want, seen, hidden) in enumerate(rows):
            for c, (w, s, h) in enumerate(zip(want, seen, hidden, strict=False)):
                if h == ".":
                    unknown += s == "?"
                    wrong += s not in ("?", w)
                    self.clear_unknown_near += s == "?" and _next_to_hidden(occluded, r, c)
                else:
                    self.covered += 1
                    self.covered_wrong += s not in ("?", w)
        self.clear += clear
        self.clear_unknown += unknown
        self.clear_wrong += wrong
        key = {(t["id"], t["row"], t["col"], t["rotation"]) for t in truth["tags"]}
        got = {(t["id"], t["row"], t["col"], t["rotation"]) for t in read.get("tags", [])}
        hits = sum((t["id"], t["row"], t["col"], t["rotation"]) in got for t in visible_tags)
        false = len(got - key)
        self.tags_found += hits
        self.false_tags += false
        if clear and unknown > 0.1 * clear:
            self.many_unknown += 1
            self.examples["> 10 % ?"].append(f"{name} mat {truth['id']}: {unknown}/{clear}")
        if wrong:
            self.examples["wrong"].append(f"{name} mat {truth['id']}: {wrong}")
        if unknown == 0 and wrong == 0 and hits == len(visible_tags) and false == 0:
            self.perfect += 1


def _next_to_hidden(occluded: list[str], row: int, col: int) -> bool:
    return any(occluded[r][c] != "."
               for r in range(max(0, row - 1), min(len(occluded), row + 2))
               for c in range(max(0, col - 1), min(len(occluded[0]), col + 2)))


def shoot(folder: Path, mode: str, seeds: range) -> tuple[dict[str, list[str]], dict, float]:
    """Write the photos; return image paths grouped by MATS.json, truths, CPU s per photo."""
    groups: dict[str, list[str]] = defaultdict(list)
    truths = {}
    started = time.process_time()
    for seed in seeds:
        shot = photo(seed, mode)
        path = folder / f"{mode}-{seed:03d}.jpg"
        path.write_bytes(shot.jpeg)
        truths[path.name] = shot.truth
        groups[json.dumps(shot.mats_json, sort_keys=True)].append(str(path))
    return groups, truths, (time.process_time() - started) / max(1, len(seeds))


def folder_photos(folder: Path) -> dict[str, tuple[dict[str, list[str]], dict]]:
    """The photos of a folder of truths, by mode: (image paths by MATS.json, truths)."""
    mats_file = folder / "mats.json"
    if not mats_file.is_file():
        raise SystemExit(f"--folder {folder}: no mats.json there")
    mats = json.dumps(json.loads(mats_file.read_text()), sort_keys=True)
    modes: dict[str, tuple[dict[str, list[str]], dict]] = {}
    for truth_path in sorted(folder.glob("*.truth.json")):
        name = truth_path.name.removesuffix(".truth.json")
        image = next((folder / f"{name}{ext}" for ext in (".jpg", ".png")
                      if (folder / f"{name}{ext}").is_file()), None)
        if image is None:
            raise SystemExit(f"--folder {folder}: {truth_path.name} has no image beside it")
        prefix = name.split("-", 1)[0]
        mode = prefix if prefix in ("plain", "real") else "folder"
        groups, truths = modes.setdefault(mode, (defaultdict(list), {}))
        groups[mats].append(str(image.resolve()))
        truths[image.name] = json.loads(truth_path.read_text())
    if not modes:
        raise SystemExit(f"--folder {folder}: no NAME.truth.json there")
    return modes


def per_photo(truths: dict, readings: dict) -> None:
    """Each photo's mats: clear cells, how many ``?`` and wrong, tags missed and false."""
    for name, truth in truths.items():
        found = {m["id"]: m for m in readings.get(name, {}).get("mats", [])}
        for mat in truth["mats"]:
            one = Score()
            one.add_mat(name, mat, found.get(mat["id"]))
            state = "not found" if not one.found else (
                f"{one.clear_unknown} ? and {one.clear_wrong} wrong of {one.clear} clear cells, "
                f"{one.tags - one.tags_found} tags missed, {one.false_tags} false")
            print(f"  {name} mat {mat['id']}: {state}")


def read_all(folder: Path, groups: dict[str, list[str]], reader: list[str]) -> tuple[dict, float]:
    """Run the reader once per MATS.json over its photos; its output per image name."""
    readings = {}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for index, (mats, paths) in enumerate(groups.items()):
        mats_file = folder / f"mats-{index}.json"
        mats_file.write_text(mats)
        done = subprocess.run([*reader, "vision", "read", *paths, "--mats", str(mats_file)],
                              capture_output=True, text=True, env=env, check=False,
                              cwd=ROOT)  # not benchmarks/: its vision.py would shadow the package
        if done.returncode not in (0, 2):
            raise SystemExit(f"reader failed ({done.returncode}): {done.stderr.strip()[-300:]}")
        for line in done.stdout.splitlines():
            if line.strip():
                record = json.loads(line)
                readings[Path(record["image"]).name] = record
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return readings, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def score(truths: dict, readings: dict) -> Score:
    total = Score()
    for name, truth in truths.items():
        total.photos += 1
        reading = readings.get(name, {})
        if "error" in reading or not reading:
            total.errors += 1
        found = {m["id"]: m for m in reading.get("mats", [])}
        for mat in truth["mats"]:
            total.add_mat(name, mat, found.get(mat["id"]))
    return total


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:6.2f}%" if whole else "     -"


def report(mode: str, result: Score, cpu: float, shoot_cpu: float, reference: float) -> None:
    print(f"mode {mode}: {result.photos} photos, {result.mats} mats "
          f"({result.errors} photos unreadable)")
    print(f"  clear cells ?        {pct(result.clear_unknown, result.clear)}  "
          f"({result.clear_unknown} of {result.clear} clear cells on found mats; "
          f"{result.clear_unknown_near} of them next to a hidden cell)")
    print(f"  clear cells wrong    {pct(result.clear_wrong, result.clear)}  "
          f"({result.clear_wrong})")
    print(f"  covered guessed      {pct(result.covered_wrong, result.covered)}  "
          f"({result.covered_wrong} of {result.covered} p/o cells read as a wrong class)")
    print(f"  mats found           {pct(result.found, result.mats)}  "
          f"({result.found}/{result.mats})")
    print(f"  mats perfect         {pct(result.perfect, result.mats)}  ({result.perfect})")
    print(f"  mats >10 % clear ?   {pct(result.many_unknown, result.found)}  "
          f"({result.many_unknown} of {result.found} found)")
    print(f"  tag recall           {pct(result.tags_found, result.tags)}  "
          f"({result.tags_found}/{result.tags} tags on clear cells)")
    print(f"  false tags           {result.false_tags}")
    per = cpu / max(1, result.photos)
    print(f"  reader CPU           {per * 1000:.0f} ms/photo = {per / reference:.1f} ref "
          f"(photo model: {shoot_cpu * 1000:.0f} ms/photo = {shoot_cpu / reference:.1f} ref)")
    for kind, items in result.examples.items():
        print(f"  e.g. {kind}: {', '.join(items[:6])}{' ...' if len(items) > 6 else ''}")


def turns(squares: list[str]) -> set[tuple[str, ...]]:
    """A shape or card in its four turns."""
    out, grid = set(), [list(row) for row in squares]
    for _ in range(4):
        out.add(tuple("".join(row) for row in grid))
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]
    return out


def teach(folder: Path, game: str, mode: str, seed: int, count: int | None,
          reader: list[str], reference: float) -> None:
    """Teach a copy in a closed loop: the person does what ``catalogue learn`` says; then
    ``catalogue learn`` on the frames shot must give the same catalogue."""
    replay = folder / f"teach-{game}-{mode}-{seed}"
    started = time.process_time()
    run = teach_copy(game, seed, mode, replay, count)
    per_frame = (time.process_time() - started) / max(1, run.frames)
    replayed = learn_from_replay(game, replay, folder / f"learnt-{game}-{mode}-{seed}.json",
                                 reader)
    laid, recorded, right, ordered = score_teaching(game, run.truth, run.learnt)
    tries = [len(log.tries) for log in run.log]
    print(f"teach {game} ({mode}, seed {seed}, closed loop): {laid} laid, {recorded} "
          f"recorded: {right} right ({'in' if ordered else 'out of'} order), "
          f"{recorded - right} wrong; tries per piece median {statistics.median(tries):g}, "
          f"max {max(tries)}; {run.frames} frames ({per_frame * 1000:.0f} ms CPU a frame = "
          f"{per_frame / reference:.1f} ref, photo model and reader)")
    same = "the same catalogue" if replayed == run.learnt else "A DIFFERENT CATALOGUE"
    notes = dict(sorted(Counter(note.kind for note in run.notes).items()))
    tilts = run.truth["lamp_tilts"]
    print(f"  packref catalogue learn --replay {replay.name}: {same}; notes {notes}"
          f"{f'; the lamp tilted {tilts} times' if tilts else ''}")
    for log in run.log:
        if not log.recorded:
            print(f"  not recorded: {log.record} after {len(log.tries)} tries "
                  f"(packref said {dict(Counter(log.outcomes))})")
    if run.stopped:
        print(f"  the session stopped: {run.stopped}")


def learn_from_replay(game: str, replay: Path, out: Path, reader: list[str]) -> dict | None:
    """``packref catalogue learn`` on a replay folder: the catalogue it writes."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([*reader, "catalogue", "learn", game, "--replay", str(replay),
                           "--mats", str(replay / "mats.json"), "--out", str(out)],
                          capture_output=True, text=True, env=env, check=False, cwd=ROOT)
    if done.returncode != 0:
        print(f"  catalogue learn {replay.name} failed: {done.stderr.strip()[-300:]}")
        return None
    return json.loads(out.read_text())


def teach_fixed(folder: Path, game: str, mode: str, seed: int, count: int | None,
                reader: list[str]) -> None:
    """``--fixed``: the fixed replay (each component laid once, held still, taken away)."""
    replay = folder / f"teach-{game}-{mode}-{seed}"
    truth = teaching_sequence(game, seed, mode, replay, count)
    learnt = learn_from_replay(game, replay, folder / f"learnt-{game}-{mode}-{seed}.json",
                               reader)
    if learnt is None:
        return
    laid, recorded, right, ordered = score_teaching(game, truth, learnt)
    print(f"teach {game} ({mode}, seed {seed}, fixed replay): {len(truth['frames'])} frames, "
          f"{laid} laid, {recorded} recorded: {right} right "
          f"({'in' if ordered else 'out of'} order), {recorded - right} wrong")


def score_teaching(game: str, truth: dict, learnt: dict) -> tuple[int, int, int, bool]:
    """(laid, recorded, recorded right, the right ones in the order laid).

    A recording is right when it is one of the laid components (squares or
    shape up to a turn, and the tag id), each laid one matched once."""
    if game == "small-warehouse":
        laid = [(None, c["squares"]) for c in truth["cards"]]
        seen = [(None, c["squares"]) for c in learnt["cards"]]
    else:
        laid = [(i["tag"], i["shape"]) for i in truth["items"]]
        seen = [(i["tag"], i["shape"]) for i in learnt["items"]]
    unmatched = list(range(len(laid)))
    matches = []
    for tag, shape in seen:
        hit = next((i for i in unmatched if laid[i][0] == tag
                    and tuple(shape) in turns(laid[i][1])), None)
        if hit is not None:
            unmatched.remove(hit)
            matches.append(hit)
    return len(laid), len(seen), len(matches), matches == sorted(matches)


def parse_seeds(text: str) -> range:
    first, last = (int(part) for part in text.split(":", 1))
    if not 0 <= first < last:
        raise argparse.ArgumentTypeError(f"{text!r} must be A:B with 0 <= A < B")
    if last > SEALED.start - 1 and first < SEALED.stop:
        raise argparse.ArgumentTypeError("the sealed seeds are only run with --sealed")
    return range(first, last)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=parse_seeds, default=range(0, 40))
    parser.add_argument("--modes", default="plain,real")
    parser.add_argument("--sealed", action="store_true", help="the held-out seeds 1000000-1000099")
    parser.add_argument("--folder", type=Path,
                        help="score the photos and truths of this folder instead")
    parser.add_argument("--keep", type=Path, help="keep the photos and readings in this folder")
    parser.add_argument("--teach", type=int, metavar="N", nargs="?", const=0,
                        help="also teach both games (N components each; no N: the whole "
                             "20-card deck and 12 items), the person doing what catalogue "
                             "learn says")
    parser.add_argument("--teach-seeds", type=parse_seeds, metavar="A:B",
                        help="with --teach: a session per seed (default: the first of --seeds)")
    parser.add_argument("--fixed", action="store_true",
                        help="with --teach: the fixed replay instead (each component laid "
                             "once, held still, taken away) read by catalogue learn")
    args = parser.parse_args()
    seeds = SEALED if args.sealed else args.seeds
    modes = [m for m in args.modes.split(",") if m]
    if not modes or any(m not in ("plain", "real") for m in modes):
        parser.error("--modes: a comma-separated list of plain, real")
    reference = reference_seconds()
    print(reference_line())
    if args.folder is not None:
        score_folder(args.folder, reference)
        return
    print(f"seeds {seeds.start}:{seeds.stop}{' (sealed)' if args.sealed else ''}")
    with tempfile.TemporaryDirectory() as scratch:
        folder = (args.keep or Path(scratch)).resolve()
        folder.mkdir(parents=True, exist_ok=True)
        for mode in modes:
            groups, truths, shoot_cpu = shoot(folder, mode, seeds)
            readings, cpu = read_all(folder, groups, READER)
            if args.keep:
                (folder / f"{mode}-readings.jsonl").write_text(
                    "".join(json.dumps(readings.get(name, {})) + "\n" for name in truths))
                (folder / f"{mode}-truth.jsonl").write_text(
                    "".join(json.dumps(truth) + "\n" for truth in truths.values()))
            report(mode, score(truths, readings), cpu, shoot_cpu, reference)
            if args.teach is not None:
                teach_all(args, folder, mode, seeds, reference)


def teach_all(args: argparse.Namespace, folder: Path, mode: str, seeds: range,
              reference: float) -> None:
    for seed in args.teach_seeds or range(seeds.start, seeds.start + 1):
        for game in ("small-warehouse", "removal"):
            if args.fixed:
                teach_fixed(folder, game, mode, seed, args.teach or None, READER)
            else:
                teach(folder, game, mode, seed, args.teach or None, READER, reference)


def score_folder(folder: Path, reference: float) -> None:
    """``--folder``: the photos and truths someone else made, by mode, and per photo."""
    print(f"folder {folder}")
    with tempfile.TemporaryDirectory() as scratch:
        for mode, (groups, truths) in folder_photos(folder.resolve()).items():
            readings, cpu = read_all(Path(scratch), groups, READER)
            report(mode, score(truths, readings), cpu, 0.0, reference)
            per_photo(truths, readings)


if __name__ == "__main__":
    main()
