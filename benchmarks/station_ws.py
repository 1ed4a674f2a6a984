"""Live updates to many browsers: the delay from an event being stored to its arrival.

Run ``.venv/bin/python benchmarks/station_ws.py [--clients 50] [--updates 200]``.
It starts a real ``packref serve`` on loopback (a temporary data directory,
SQLite), opens ``--clients`` WebSocket connections to one table's live page
feed (as that many browsers would), then posts observations through the API,
one every ``--interval`` seconds: first the actions of a Moving Day game, then
camera frames. Every update carries ``stored_at``, the time just after its
events were committed; each client notes when the update reached it. It prints
the p50/p95/max delay over every (update, client) pair — aim p95 ≤ 100 ms —
as text on stderr and as one JSON line on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx  # noqa: E402
import websockets  # noqa: E402

from rules import get_game  # noqa: E402

TOKEN = "benchmark-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ["Ana", "Ben", "Cas"]


def start_station(data: Path) -> tuple[subprocess.Popen[str], str]:
    """``packref serve`` on a free loopback port; returns the process and its URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(data)],
        cwd=REPO, env=dict(os.environ, PACKREF_TOKEN=TOKEN), stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline() if process.stdout else ""
    if not line:
        raise SystemExit("packref serve did not start")
    return process, json.loads(line)["url"].rstrip("/")


def observations(count: int) -> list[dict]:
    """A Moving Day game's declared actions, then camera frames, ``count`` in all."""
    state = get_game("moving-day").new_game(PLAYERS, seed=1)
    rng = random.Random(1)
    bodies = []
    for index in range(count):
        if not state.is_over():
            action = rng.choice(state.legal_actions())
            state.apply(action)
            bodies.append({"observation": {"kind": "declared", "action": action}})
        else:
            bodies.append({"observation": {"kind": "frame", "n": index}})
    return bodies


async def client(url: str, expected: int, delays: list[float], ready: asyncio.Event,
                 opened: list[int], total: int) -> None:
    """One browser's worth: take the first snapshot, then time every update."""
    async with websockets.connect(url, max_size=None) as socket:
        await socket.recv()  # the snapshot at connection time
        opened.append(1)
        if len(opened) == total:
            ready.set()
        received = 0
        while received < expected:
            message = json.loads(await socket.recv())
            delays.append(time.time() - message["stored_at"])
            received += 1


async def run(url: str, clients: int, updates: int, interval: float) -> list[float]:
    async with httpx.AsyncClient(base_url=url, headers=AUTH, timeout=30) as api:
        (await api.post("/api/tables", json={"name": "Bench", "id": "bench", "game": {
            "game": "moving-day", "players": PLAYERS, "seed": 1}})).raise_for_status()
        delays: list[float] = []
        ready = asyncio.Event()
        opened: list[int] = []
        ws_url = url.replace("http://", "ws://") + "/ws/tables/bench"
        tasks = [asyncio.create_task(client(ws_url, updates, delays, ready, opened, clients))
                 for _ in range(clients)]
        await asyncio.wait_for(ready.wait(), 30)
        for body in observations(updates):
            (await api.post("/api/tables/bench/observations", json=body)).raise_for_status()
            await asyncio.sleep(interval)
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        return delays


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between updates")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="packref-bench-") as data:
        process, url = start_station(Path(data))
        try:
            delays = asyncio.run(run(url, arguments.clients, arguments.updates,
                                     arguments.interval))
        finally:
            process.terminate()
            process.wait(timeout=10)
    figures = {"clients": arguments.clients, "updates": arguments.updates,
               "received": len(delays),
               "p50_ms": round(statistics.median(delays) * 1000, 1),
               "p95_ms": round(percentile(delays, 0.95) * 1000, 1),
               "max_ms": round(max(delays) * 1000, 1)}
    print(f"{figures['clients']} WebSocket clients x {figures['updates']} updates: "
          f"p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, max {figures['max_ms']} ms "
          "(event stored -> update received, loopback)", file=sys.stderr)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
