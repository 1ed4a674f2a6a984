"""Regenerate the committed drone fixtures: ``python -m devkit.hardware.fixtures fixtures/drone``.

Writes short simulated challenges (three flights each, so the set stays small):
for each, the samples as CSV (``sim-SEED.csv``), the true events
(``sim-SEED.truth.jsonl``) and what the detector finds in the CSV today
(``sim-SEED.events.jsonl``, the expected output of ``packref drone events``); two
of them also as raw captures encoded by the firmware's frame module
(``sim-SEED.bin``). Everything is reproducible from the seeds below.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from hardware.calibration import Calibration
from hardware.capture import encode_capture
from hardware.events import detect_events
from hardware.samples import parse_csv
from hardware.simulate import SimulationOptions, simulate_challenge

CSV_SEEDS = (1, 2, 3, 4)
CAPTURE_SEEDS = (1, 3)
SHORT = SimulationOptions(cards=3, drop_in_flight=0.25, press_at_rest=0.0,
                          press_imu_accel=(0.0, 0.0), press_tilt_deg=0.0)  # as first written
CALIBRATION = Calibration(tare_counts=8388, grams_per_count=0.0024)


def _json_lines(documents) -> str:
    return "".join(json.dumps(document) + "\n" for document in documents)


def write_fixtures(folder: Path) -> list[Path]:
    """Write every fixture into ``folder``; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for seed in CSV_SEEDS:
        run = simulate_challenge(seed, SHORT)
        stem = folder / f"sim-{seed:04d}"
        paths = {"csv": stem.with_suffix(".csv"), "truth": Path(f"{stem}.truth.jsonl"),
                 "events": Path(f"{stem}.events.jsonl")}
        text = run.samples.to_csv(digits=3)
        paths["csv"].write_text(text, encoding="utf-8")
        truth = [{"t": round(e["t"], 3), "event": e["event"], "mass_g": round(e["mass_g"], 1)}
                 for e in run.truth]
        paths["truth"].write_text(_json_lines(truth), encoding="utf-8")
        events = [event.to_json() for event in detect_events(parse_csv(text))]
        paths["events"].write_text(_json_lines(events), encoding="utf-8")
        written += paths.values()
        if seed in CAPTURE_SEEDS:
            capture = stem.with_suffix(".bin")
            capture.write_bytes(encode_capture(run.samples, CALIBRATION))
            written.append(capture)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="fixtures/drone")
    arguments = parser.parse_args()
    for path in write_fixtures(Path(arguments.folder)):
        print(f"{path}  {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
