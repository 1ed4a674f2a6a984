"""Cross-station latency on one PostgreSQL hub: a write at station A to the update
arriving on a WebSocket of station B.

Starts a throwaway PostgreSQL cluster (initdb in a temporary directory, unix socket
only; as user ``postgres`` when run as root) unless ``--db`` names one, then two
``packref serve`` on it. A posts ``--updates`` observations (a Small Warehouse game,
then camera frames) ``--interval`` apart; B's table page socket times each update,
from just before A's request is sent (so A's own work is included). Then
tournament changes, alternately written at A and at B, are timed to the other's
tournament page. Figures in wall-clock seconds (a delay across processes and a
database: waiting counts, so no CPU clock fits), and the p95 relative to the CPU
time of the fixed reference workload (``benchmarks/reference.py``) timed in the
same run: a yardstick of the machine's speed, not a like-for-like ratio.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/hub.py [--updates 200] [--interval 0.05]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
from reference import reference_line, reference_seconds
from websockets.sync.client import connect

from rules import get_game

REPO = Path(__file__).resolve().parent.parent
TOKEN = "hub-benchmark"


def _as_owner(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def throwaway_postgres():
    """A database URL on a PostgreSQL cluster that lives as long as the ``with``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise SystemExit("PostgreSQL is not installed (make system-deps), or give --db URL")
    bin_dir = Path(found[-1]).parent
    root = Path(tempfile.mkdtemp(prefix="packref-hub-bench-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    subprocess.run(_as_owner([str(bin_dir / "initdb"), "-D", str(root / "data"), "-A", "trust",
                              "-U", "postgres", "--no-sync"]), check=True, capture_output=True)
    options = f"-k {root} -p {port} -c listen_addresses='' -c fsync=off"
    subprocess.run(_as_owner([str(bin_dir / "pg_ctl"), "-D", str(root / "data"), "-o", options,
                              "-l", str(root / "log"), "-w", "start"]), check=True,
                   capture_output=True)
    try:
        yield f"postgresql+psycopg://postgres@/postgres?host={root}&port={port}"
    finally:
        subprocess.run(_as_owner([str(bin_dir / "pg_ctl"), "-D", str(root / "data"), "-m",
                                  "immediate", "stop"]), capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


class Serve:
    def __init__(self, data: Path, url: str) -> None:
        data.mkdir(parents=True, exist_ok=True)
        self.log = open(data / "stderr.log", "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(data),
             "--db", url], cwd=REPO, env=dict(os.environ, PACKREF_TOKEN=TOKEN),
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.url = json.loads(self.process.stdout.readline())["url"].rstrip("/")
        self.client = httpx.Client(base_url=self.url, timeout=30,
                                   headers={"Authorization": f"Bearer {TOKEN}"})

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.process.stdout.close()
        self.log.close()
        self.client.close()


class Arrivals:
    """Every message of a WebSocket, with its arrival time."""

    def __init__(self, url: str) -> None:
        self.socket = connect(url)
        self.messages: list[tuple[float, dict]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for text in self.socket:
                self.messages.append((time.time(), json.loads(text)))
        except Exception:
            return

    def first(self, test, since: float, timeout: float = 10.0) -> float:
        deadline = time.time() + timeout
        while time.time() < deadline:
            for arrived, message in list(self.messages):
                if arrived >= since and test(message):
                    return arrived
            time.sleep(0.002)
        return float("nan")


def figures(delays: list[float], reference: float) -> dict:
    ordered = sorted(delays)
    p95 = statistics.quantiles(ordered, n=20)[-1]
    return {"n": len(ordered), "p50_s": round(statistics.median(ordered), 4),
            "p95_s": round(p95, 4), "max_s": round(ordered[-1], 4),
            "p95_ref": round(p95 / reference, 2)}


def measure(url: str, updates: int, interval: float, reference: float) -> None:
    work = Path(tempfile.mkdtemp(prefix="packref-hub-stations-"))
    a, b = Serve(work / "a", url), Serve(work / "b", url)
    try:
        a.client.post("/api/tables", json={"name": "Bench", "id": "bench", "game": {
            "game": "small-warehouse", "players": ["Ana", "Ben"], "seed": 1}})
        a.client.post("/api/tournaments", json={"name": "Bench Cup", "id": "bench-cup"})
        table = Arrivals(b.url.replace("http", "ws", 1) + "/ws/tables/bench")
        cups = {"a": Arrivals(a.url.replace("http", "ws", 1) + "/ws/tournaments/bench-cup"),
                "b": Arrivals(b.url.replace("http", "ws", 1) + "/ws/tournaments/bench-cup")}
        time.sleep(0.5)
        state, rng, delays = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=1), \
            random.Random(1), []
        for n in range(updates):
            if state.is_over():
                body = {"observation": {"kind": "frame", "n": n}}
            else:
                action = rng.choice(state.legal_actions())
                state.apply(action)
                body = {"observation": {"kind": "declared", "action": action}}
            sent = time.time()
            seq = a.client.post("/api/tables/bench/observations", json=body).json()[
                "events"][-1]["seq"]
            delays.append(table.first(lambda m, s=seq: m.get("seq", 0) >= s, sent) - sent)
            time.sleep(interval)
        print(json.dumps({"what": "table update, A to B's table page", **figures(delays,
                                                                                 reference)}))
        delays = []
        for n in range(40):
            writer, page = (a, cups["b"]) if n % 2 == 0 else (b, cups["a"])
            sent = time.time()
            writer.client.post("/api/tournaments/bench-cup/players", json={"name": f"P{n}"})
            delays.append(page.first(lambda m: m["type"] == "changed", sent) - sent)
            time.sleep(interval)
        print(json.dumps({"what": "tournament change, to the other station's page",
                          **figures(delays, reference)}))
    finally:
        a.stop()
        b.stop()
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a PostgreSQL URL (default: a throwaway cluster)")
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.05)
    arguments = parser.parse_args()
    print(reference_line())
    print("wall-clock seconds; p95_ref = the p95 delay / the reference's CPU time")
    reference = reference_seconds()
    if arguments.db:
        measure(arguments.db, arguments.updates, arguments.interval, reference)
        return
    with throwaway_postgres() as url:
        measure(url, arguments.updates, arguments.interval, reference)


if __name__ == "__main__":
    main()
