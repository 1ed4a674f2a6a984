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

``--load`` measures the station under a venue's load instead: ``--tables 8`` tables,
``--watchers 100`` WebSocket watchers spread over them, ``--rate 400`` readings a second
offered for ``--seconds 30`` (open loop: each reading is sent at its time, whatever the
answers; at most ``--in-flight`` requests at once, so the load is bounded: a reading due
while that many wait is counted as not sent). Every reading carries an
``Idempotency-Key``. It prints the readings offered, sent, acknowledged (201) and
acknowledged per second; p50/p95 from a POST being sent to its table's update reaching
each watcher of that table; and whether every acknowledged reading is stored exactly
once (read back from each table's record). Loopback only. Aim: all accepted, p95 ≤ 250
ms on a developer's machine. It also prints the station's CPU time per acknowledged
reading and this process's own (the readings' client and the watchers, one Python
process): when this process keeps a whole core busy it cannot offer more.
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
from collections import Counter
from pathlib import Path
from typing import Any

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


# -- --load: many tables, many watchers, a steady offered rate -------------------------------

async def load_watcher(url: str, arrivals: dict[int, float], ready: list[int],
                       stop: asyncio.Event) -> None:
    """One watcher of a table: when each event number first reached it (an update carries
    the table's ``seq``: every reading up to it is in)."""
    async with websockets.connect(url, max_size=None, compression=None) as socket:
        await socket.recv()
        ready.append(1)
        while not stop.is_set():
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), 0.5))
            except TimeoutError:
                continue
            if message.get("type") == "snapshot":
                arrivals.setdefault(int(message["seq"]), time.time())


async def send_reading(api: httpx.AsyncClient, table: str, number: int,
                       sent: list[tuple[str, int, float, int]], failures: list[str]) -> None:
    """POST one reading; on 201, note (table, its number, when it was sent, its last seq).
    A connection lost before the answer is retried with the same key (at most twice): the
    reading may be stored already, and the key keeps it from being stored twice."""
    started = time.time()
    body = {"observation": {"kind": "frame", "n": number}, "source": "camera"}
    for attempt in range(3):
        try:
            answer = await api.post(f"/api/tables/{table}/observations", json=body,
                                    headers={"Idempotency-Key": f"load-{table}-{number}"})
            break
        except httpx.HTTPError as error:
            if attempt == 2:
                failures.append(type(error).__name__)
                return
    if answer.status_code != 201:
        failures.append(str(answer.status_code))
        return
    sent.append((table, number, started, answer.json()["events"][-1]["seq"]))


async def offer(api: httpx.AsyncClient, tables: list[str], rate: float, seconds: float,
                in_flight: int, sent: list[tuple[str, int, float, int]],
                failures: list[str]) -> tuple[int, int]:
    """Offer ``rate`` readings a second for ``seconds``, round-robin over ``tables``;
    returns (offered, not sent because ``in_flight`` requests were waiting)."""
    pending: set[asyncio.Task[None]] = set()
    begun, offered, skipped = time.monotonic(), 0, 0
    while (due := begun + offered / rate) < begun + seconds:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        table = tables[offered % len(tables)]
        offered += 1
        pending = {task for task in pending if not task.done()}
        if len(pending) >= in_flight:
            skipped += 1
            continue
        pending.add(asyncio.create_task(send_reading(api, table, offered, sent, failures)))
    await asyncio.gather(*pending)
    return offered, skipped


async def stored_once(api: httpx.AsyncClient, table: str) -> Counter[int]:
    """How many times each reading number is stored in ``table``'s record."""
    counts: Counter[int] = Counter()
    after = 0
    while True:
        page = (await api.get(f"/api/tables/{table}/events",
                              params={"after": after, "limit": 5000})).json()
        if not page:
            return counts
        for event in page:
            observation = event.get("observation") or {}
            if event["kind"] == "observation" and observation.get("kind") == "frame":
                counts[int(observation["n"])] += 1
        after = page[-1]["seq"]


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time process ``pid`` has used (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run_load(url: str, arguments: argparse.Namespace, pid: int) -> dict[str, Any]:
    tables = [f"load-{index}" for index in range(arguments.tables)]
    limits = httpx.Limits(max_connections=arguments.in_flight)
    async with httpx.AsyncClient(base_url=url, headers=AUTH, timeout=60, limits=limits) as api:
        for table in tables:
            (await api.post("/api/tables", json={"name": table, "id": table, "game": {
                "game": "moving-day", "players": PLAYERS, "seed": 1}})).raise_for_status()
        arrivals: dict[str, list[dict[int, float]]] = {table: [] for table in tables}
        ready: list[int] = []
        stop = asyncio.Event()
        watchers = []
        for index in range(arguments.watchers):
            table = tables[index % len(tables)]
            seen: dict[int, float] = {}
            arrivals[table].append(seen)
            ws_url = url.replace("http://", "ws://") + f"/ws/tables/{table}"
            watchers.append(asyncio.create_task(load_watcher(ws_url, seen, ready, stop)))
        while len(ready) < arguments.watchers:
            await asyncio.sleep(0.05)
        sent: list[tuple[str, int, float, int]] = []
        failures: list[str] = []
        began, cpu_began = time.monotonic(), cpu_seconds(pid)
        own_cpu_began = time.process_time()
        offered, skipped = await offer(api, tables, arguments.rate, arguments.seconds,
                                       arguments.in_flight, sent, failures)
        elapsed = time.monotonic() - began
        own_cpu = time.process_time() - own_cpu_began
        await asyncio.sleep(2.0)  # the last updates on their way
        server_cpu = cpu_seconds(pid) - cpu_began
        stop.set()
        await asyncio.gather(*watchers)
        counts = [await stored_once(api, table) for table in tables]
    delays = post_to_watcher_delays(sent, arrivals)
    stored = Counter[tuple[str, int]]()
    for table, table_counts in zip(tables, counts, strict=True):
        stored.update({(table, number): n for number, n in table_counts.items()})
    acknowledged = {(table, number) for table, number, _at, _seq in sent}
    return {"tables": arguments.tables, "watchers": arguments.watchers,
            "rate_offered": arguments.rate, "seconds": arguments.seconds,
            "offered": offered, "not_sent_bound": skipped, "failed": len(failures),
            "failures": dict(Counter(failures)), "acknowledged": len(sent),
            "acknowledged_per_s": round(len(sent) / elapsed, 1),
            "elapsed_s": round(elapsed, 1),
            "server_cpu_ms_per_reading": round(1000 * server_cpu / max(1, len(sent)), 2),
            # This process (the readings' HTTP client and every watcher) while it offered:
            # near 1.0 of a core, it cannot offer more, whatever the station does.
            "client_cpu_ms_per_reading": round(1000 * own_cpu / max(1, len(sent)), 2),
            "client_cores_busy": round(own_cpu / elapsed, 2),
            "stored_exactly_once": all(stored[key] == 1 for key in acknowledged),
            "stored_twice_or_more": sum(1 for key in acknowledged if stored[key] > 1),
            "missing": sum(1 for key in acknowledged if stored[key] == 0),
            "delays": delays}


def post_to_watcher_delays(sent: list[tuple[str, int, float, int]],
                           arrivals: dict[str, list[dict[int, float]]]) -> list[float]:
    """For each acknowledged reading and each watcher of its table: from the POST being
    sent to the first update carrying its event (an update with that seq or a later one)."""
    delays = []
    for table, _number, started, seq in sent:
        for seen in arrivals[table]:
            later = [at for number, at in seen.items() if number >= seq]
            if later:
                delays.append(min(later) - started)
    return delays


def measure_load(arguments: argparse.Namespace) -> None:
    print(reference_line(), file=sys.stderr)
    ref = reference_seconds()
    with tempfile.TemporaryDirectory(prefix="packref-bench-") as data:
        process, url = start_station(Path(data))
        try:
            figures = asyncio.run(run_load(url, arguments, process.pid))
        finally:
            process.terminate()
            process.wait(timeout=10)
    delays = figures.pop("delays")
    if delays:
        p95 = percentile(delays, 0.95)
        figures |= {"deliveries": len(delays),
                    "p50_ms": round(statistics.median(delays) * 1000, 1),
                    "p95_ms": round(p95 * 1000, 1), "max_ms": round(max(delays) * 1000, 1),
                    "p95_ref": round(p95 / ref, 3)}
    figures["reference_ms"] = round(ref * 1000, 1)
    print(f"{figures['tables']} tables, {figures['watchers']} watchers, "
          f"{figures['rate_offered']:g}/s offered for {figures['seconds']:g} s: "
          f"{figures['acknowledged']} of {figures['offered']} acknowledged in "
          f"{figures['elapsed_s']:g} s ({figures['acknowledged_per_s']}/s; "
          f"{figures['not_sent_bound']} not sent, "
          f"{figures['failed']} failed); POST -> WebSocket p50 {figures.get('p50_ms')} ms, "
          f"p95 {figures.get('p95_ms')} ms ({figures.get('p95_ref')} ref); stored exactly "
          f"once: {figures['stored_exactly_once']}; the station's CPU "
          f"{figures['server_cpu_ms_per_reading']} ms a reading "
          f"({figures['server_cpu_ms_per_reading'] / figures['reference_ms']:.3f} ref); "
          f"this client's CPU {figures['client_cpu_ms_per_reading']} ms a reading "
          f"({figures['client_cores_busy']} of a core busy)", file=sys.stderr)
    print(json.dumps(figures))


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
    parser.add_argument("--load", action="store_true",
                        help="the load run instead: many tables, watchers, a steady rate")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--rate", type=float, default=400.0, help="readings a second offered")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--in-flight", type=int, default=64,
                        help="at most this many requests waiting at once (the bound)")
    arguments = parser.parse_args()
    if arguments.load:
        measure_load(arguments)
        return
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
