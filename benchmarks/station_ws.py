"""Live updates to many browsers: the delay from an event being stored to its arrival.

Run ``.venv/bin/python benchmarks/station_ws.py [--clients 50] [--updates 200]``.
It starts a real ``packref serve`` on loopback (a temporary data directory,
SQLite), opens ``--clients`` WebSocket connections to one table's live page
feed (as that many browsers would), then posts observations through the API,
one every ``--interval`` seconds: the actions of a Moving Day game, one every
``--action-every`` updates, and camera frames between and after. Every update
carries ``stored_at``, the time just after its events were committed; each
client notes when the update reached it. It prints the p50/p95/max delay over
every (update, client) pair — aim p95 ≤ 100 ms — as text on stderr and as one
JSON line on stdout.

It does so with win chances off and on (``serve --win-chances``: a worker process
studies each new position, ``--advice-seconds`` each, and the pages get an ``advice``
message later), alternating ``--rounds`` times, each on a fresh station, and prints the
p95 with win chances on relative to off, and every delay in units of the reference
workload's time (``benchmarks/reference.py``). Aim: no worse p95 with win chances on.
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
from reference import reference_line, reference_seconds  # noqa: E402

from rules import get_game  # noqa: E402

TOKEN = "benchmark-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ["Ana", "Ben", "Cas"]


def start_station(data: Path, win_chances: bool = False,
                  advice_seconds: float = 0.5) -> tuple[subprocess.Popen[str], str]:
    """``packref serve`` on a free loopback port; returns the process and its URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(data),
         "--win-chances", "on" if win_chances else "off",
         "--advice-seconds", str(advice_seconds)],
        cwd=REPO, env=dict(os.environ, PACKREF_TOKEN=TOKEN), stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline() if process.stdout else ""
    if not line:
        raise SystemExit("packref serve did not start")
    return process, json.loads(line)["url"].rstrip("/")


def observations(count: int, action_every: int) -> list[dict]:
    """A Moving Day game's declared actions, one every ``action_every`` updates, camera
    frames between and after, ``count`` in all."""
    state = get_game("moving-day").new_game(PLAYERS, seed=1)
    rng = random.Random(1)
    bodies = []
    for index in range(count):
        if not state.is_over() and index % action_every == 0:
            action = rng.choice(state.legal_actions())
            state.apply(action)
            bodies.append({"observation": {"kind": "declared", "action": action}})
        else:
            bodies.append({"observation": {"kind": "frame", "n": index}})
    return bodies


async def client(url: str, expected: int, delays: list[float], ready: asyncio.Event,
                 opened: list[int], total: int, advice: list[int]) -> None:
    """One browser's worth: take the first snapshot, then time every update (the advice
    messages that come between are counted, not timed: they follow their update)."""
    async with websockets.connect(url, max_size=None) as socket:
        await socket.recv()  # the snapshot at connection time
        opened.append(1)
        if len(opened) == total:
            ready.set()
        received = 0
        while received < expected:
            message = json.loads(await socket.recv())
            if message.get("type") != "snapshot":
                advice.append(1)
                continue
            delays.append(time.time() - message["stored_at"])
            received += 1


async def run(url: str, clients: int, updates: int, interval: float, action_every: int
              ) -> tuple[list[float], int]:
    async with httpx.AsyncClient(base_url=url, headers=AUTH, timeout=30) as api:
        (await api.post("/api/tables", json={"name": "Bench", "id": "bench", "game": {
            "game": "moving-day", "players": PLAYERS, "seed": 1}})).raise_for_status()
        delays: list[float] = []
        ready = asyncio.Event()
        opened: list[int] = []
        ws_url = url.replace("http://", "ws://") + "/ws/tables/bench"
        advice: list[int] = []
        tasks = [asyncio.create_task(client(ws_url, updates, delays, ready, opened, clients,
                                            advice))
                 for _ in range(clients)]
        await asyncio.wait_for(ready.wait(), 30)
        for body in observations(updates, action_every):
            (await api.post("/api/tables/bench/observations", json=body)).raise_for_status()
            await asyncio.sleep(interval)
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        return delays, len(advice)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(arguments: argparse.Namespace, win_chances: bool) -> tuple[list[float], int]:
    """One run on a fresh station: the delays, and the advice messages received."""
    with tempfile.TemporaryDirectory(prefix="packref-bench-") as data:
        process, url = start_station(Path(data), win_chances, arguments.advice_seconds)
        try:
            return asyncio.run(run(url, arguments.clients, arguments.updates,
                                   arguments.interval, arguments.action_every))
        finally:
            process.terminate()
            process.wait(timeout=10)


def figures_of(delays: list[float], advice: int, ref: float) -> dict[str, float]:
    p95 = percentile(delays, 0.95)
    return {"received": len(delays), "advice_messages": advice,
            "p50_ms": round(statistics.median(delays) * 1000, 1),
            "p95_ms": round(p95 * 1000, 1), "max_ms": round(max(delays) * 1000, 1),
            "p95_ref": round(p95 / ref, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between updates")
    parser.add_argument("--action-every", type=int, default=10,
                        help="one game action per this many updates, camera frames between "
                        "(default 10: an action every 0.5 s, a brisk table)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="runs with win chances off then on, alternating (default 2 each)")
    parser.add_argument("--advice-seconds", type=float, default=0.5,
                        help="the advisor's budget per position when win chances are on")
    arguments = parser.parse_args()
    print(reference_line(), file=sys.stderr)
    ref = reference_seconds()
    runs: dict[bool, tuple[list[float], int]] = {False: ([], 0), True: ([], 0)}
    for _ in range(arguments.rounds):
        for win_chances in (False, True):
            delays, advice = measure(arguments, win_chances)
            runs[win_chances] = (runs[win_chances][0] + delays, runs[win_chances][1] + advice)
    off, on = (figures_of(*runs[mode], ref) for mode in (False, True))
    figures = {"clients": arguments.clients, "updates": arguments.updates,
               "action_every": arguments.action_every, "rounds": arguments.rounds,
               "advice_seconds": arguments.advice_seconds,
               "reference_ms": round(ref * 1000, 1), "win_chances_off": off,
               "win_chances_on": on, "p95_on_over_off": round(on["p95_ms"] / off["p95_ms"], 2)}
    for label, line in (("win chances off", off), ("win chances on ", on)):
        print(f"{label}: {figures['clients']} WebSocket clients x {figures['updates']} updates x "
              f"{arguments.rounds}: p50 {line['p50_ms']} ms, p95 {line['p95_ms']} ms "
              f"({line['p95_ref']} ref), max {line['max_ms']} ms; advice messages "
              f"{line['advice_messages']}", file=sys.stderr)
    print(f"p95 with win chances on / off: {figures['p95_on_over_off']} "
          "(event stored -> update received, loopback)", file=sys.stderr)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
