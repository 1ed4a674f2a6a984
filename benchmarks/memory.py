"""Resident memory of ``packref serve`` with two live camera tables: does it fit a Pi?

Run ``.venv/bin/python benchmarks/memory.py [--frames DIR] [--tables 2]``.

It renders the demo's Small Warehouse camera script once (``--frames``, reused when
already there), starts a Small Warehouse game at each of ``--tables`` tables, then
runs a real ``packref serve`` whose every table reads that folder through its own
camera source (reader, stability filter, camera referee, engine, store, archive of
the frames behind rulings), as ``--camera TABLE=DIR`` on the Pi would. A dashboard
is simulated: each table's snapshot is fetched every sample. The server's resident
memory is read from ``/proc/PID/status`` (``VmRSS``; ``VmHWM`` is the peak) every
0.25 s until every table's game is over. Aim: peak < 300 MB.

The fixed reference workload (``benchmarks/reference.py``) is timed in the same
run: the wall time of the replay is also given in reference units. Text on stderr,
one JSON line on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx  # noqa: E402

from benchmarks.reference import reference_line, reference_seconds  # noqa: E402

SCRIPT = REPO / "station" / "demo" / "recordings" / "camera" / "small-warehouse.json"
AIM_MB = 300.0
TOKEN = "benchmark-token"


def render_frames(folder: Path) -> int:
    """The script's photos in ``folder`` (rendered unless already there); how many."""
    from station.demo import camera_fixtures as fixtures

    renderer = fixtures.Renderer(fixtures.read_script(SCRIPT), folder)
    if not renderer.done():
        print(f"rendering {len(renderer.plan)} frames into {folder} ...", file=sys.stderr)
        for _ in renderer:
            pass
    return len(renderer.plan)


def prepare_tables(data: Path, count: int) -> list[str]:
    """``count`` tables playing the script's game, in the station's database."""
    from station.config import load_settings
    from station.demo.camera_fixtures import read_script
    from station.live.station import Station
    from station.store import EventStore, open_database

    script = read_script(SCRIPT)
    database = open_database(load_settings(data).database_url)
    station = Station(EventStore(database))
    tables = [f"cam-{index + 1}" for index in range(count)]
    for table in tables:
        station.create_table(table, table)
        station.start_game(table, script["game"], script["players"], script["seed"], None,
                           "benchmark")
    database.close()
    return tables


def status_kb(pid: int) -> dict[str, int]:
    """``VmRSS`` and ``VmHWM`` of a process, in kB, from ``/proc``."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0])
    return found


def run(frames: Path, tables_wanted: int, timeout_s: float) -> dict:
    data = Path(tempfile.mkdtemp(prefix="packref-memory-"))
    tables = prepare_tables(data, tables_wanted)
    command = [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(data)]
    for table in tables:
        command += ["--camera", f"{table}={frames}"]
    server = subprocess.Popen(command, cwd=REPO, env=dict(os.environ, PACKREF_TOKEN=TOKEN),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = json.loads(server.stdout.readline())["url"].rstrip("/")
        started = time.monotonic()
        idle = status_kb(server.pid)["VmRSS"]
        samples, over = [], False
        with httpx.Client(base_url=url, timeout=10) as client:
            while not over and time.monotonic() - started < timeout_s:
                snapshots = [client.get(f"/api/tables/{t}").json() for t in tables]
                samples.append(status_kb(server.pid)["VmRSS"])
                over = all(s["game"]["over"] for s in snapshots)
                time.sleep(0.25)
            elapsed = time.monotonic() - started
            final = status_kb(server.pid)
            events = sum(s["seq"] for s in snapshots)
            archive = client.get("/api/tables/cam-1/archive")
    finally:
        server.terminate()
        server.communicate(timeout=30)
    return {"tables": len(tables), "frames_per_table": len(list(frames.glob("*.jpg"))),
            "games_over": over, "events": events, "seconds": round(elapsed, 1),
            "rss_start_mb": round(idle / 1024, 1),
            "rss_median_mb": round(sorted(samples)[len(samples) // 2] / 1024, 1),
            "rss_end_mb": round(final["VmRSS"] / 1024, 1),
            "rss_peak_mb": round(final["VmHWM"] / 1024, 1),
            "archive_zip_kb": round(len(archive.content) / 1024, 1),
            "reference_ms": round(reference_seconds() * 1000, 1),
            "seconds_in_reference_units": round(elapsed / reference_seconds(), 1),
            "aim_peak_mb": AIM_MB}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=Path, default=Path(tempfile.gettempdir())
                        / "packref-memory-frames", help="where the rendered frames are kept")
    parser.add_argument("--tables", type=int, default=2, help="live camera tables (default 2)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds at most")
    arguments = parser.parse_args()
    print(reference_line(), file=sys.stderr)
    render_frames(arguments.frames)
    result = run(arguments.frames, arguments.tables, arguments.timeout)
    print(f"packref serve, {result['tables']} live camera tables "
          f"({result['frames_per_table']} frames each, {result['events']} events, "
          f"games over: {result['games_over']}) in {result['seconds']} s "
          f"({result['seconds_in_reference_units']} ref)", file=sys.stderr)
    print(f"resident memory: start {result['rss_start_mb']} MB, median "
          f"{result['rss_median_mb']} MB, end {result['rss_end_mb']} MB, peak "
          f"{result['rss_peak_mb']} MB (aim < {AIM_MB:.0f} MB)", file=sys.stderr)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
