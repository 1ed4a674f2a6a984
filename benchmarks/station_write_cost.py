"""The station's CPU a camera reading, measured with a client too small to be the limit.

Run ``.venv/bin/python benchmarks/station_write_cost.py [--readings 1500]
[--connections 8] [--watchers 100]``. It starts a real ``packref serve`` on loopback (a
temporary data directory, SQLite), makes 8 Moving Day tables, opens ``--watchers``
WebSocket watchers spread over them, then posts ``--readings`` camera readings (each
with an ``Idempotency-Key``), round-robin over the tables, over ``--connections``
keep-alive connections, each sending its next reading when its last is answered (closed
loop: as fast as the station answers). The client writes its HTTP requests by hand on
asyncio streams: ``benchmarks/station_ws.py --load`` posts with ``httpx``, whose own CPU
a request (several ms) is more than the station's. It prints the readings a second, the
station's CPU a reading (user and system, from ``/proc``), split into its event loop's
thread (HTTP, WebSocket sends) and its other threads (the writes, the paced snapshots),
the snapshots the watchers received, and the reference workload's time; one JSON line on
stdout. Loopback only; it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import websockets
from reference import reference_line, reference_seconds
from station_ws import AUTH, PLAYERS, start_station

TABLES = [f"load-{index}" for index in range(8)]


def thread_ticks(pid: int) -> dict[int, int]:
    """Each thread of process ``pid``: its user and system clock ticks so far."""
    ticks = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        ticks[int(task.name)] = int(fields[11]) + int(fields[12])
    return ticks


async def request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str,
                  method: str, path: str, body: Any = None,
                  headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One HTTP/1.1 request on a keep-alive connection; its status and body."""
    data = b"" if body is None else json.dumps(body).encode()
    lines = [f"{method} {path} HTTP/1.1", f"host: {host}", *(
        f"{name}: {value}" for name, value in {**AUTH, **(headers or {})}.items())]
    if body is not None:
        lines += ["content-type: application/json", f"content-length: {len(data)}"]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
    status = int((await reader.readline()).split()[1])
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return status, await reader.readexactly(length)


async def post_readings(host: str, port: int, first: int, count: int, failures: list[int]
                        ) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        for number in range(first, first + count):
            table = TABLES[number % len(TABLES)]
            status, _ = await request(
                reader, writer, f"{host}:{port}", "POST", f"/api/tables/{table}/observations",
                {"observation": {"kind": "frame", "n": number}, "source": "camera"},
                {"Idempotency-Key": f"cost-{number}"})
            if status != 201:
                failures.append(status)
    finally:
        writer.close()


async def watch(url: str, received: list[int], ready: list[int], stop: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=None, compression=None) as socket:
        await socket.recv()
        ready.append(1)
        while not stop.is_set():
            try:
                await asyncio.wait_for(socket.recv(), 0.5)
            except TimeoutError:
                continue
            received.append(1)


async def measure(url: str, pid: int, arguments: argparse.Namespace) -> dict[str, Any]:
    host, port = url.split("//")[1].rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    for table in TABLES:
        status, text = await request(reader, writer, f"{host}:{port}", "POST", "/api/tables", {
            "name": table, "id": table,
            "game": {"game": "moving-day", "players": PLAYERS, "seed": 1}})
        if status != 201:
            raise SystemExit(f"cannot make table {table}: {status} {text[:200]!r}")
    writer.close()
    received: list[int] = []
    ready: list[int] = []
    stop = asyncio.Event()
    ws_url = url.replace("http://", "ws://")
    watchers = [asyncio.create_task(watch(f"{ws_url}/ws/tables/{TABLES[index % len(TABLES)]}",
                                          received, ready, stop))
                for index in range(arguments.watchers)]
    while len(ready) < arguments.watchers:
        await asyncio.sleep(0.05)
    received.clear()
    each = arguments.readings // arguments.connections
    failures: list[int] = []
    ticks_before, began = thread_ticks(pid), time.monotonic()
    await asyncio.gather(*(post_readings(host, int(port), index * each, each, failures)
                           for index in range(arguments.connections)))
    elapsed = time.monotonic() - began
    await asyncio.sleep(1.0)  # the last paced snapshots
    ticks_after = thread_ticks(pid)
    stop.set()
    await asyncio.gather(*watchers)
    per_tick = 1000 / os.sysconf("SC_CLK_TCK")
    posted = each * arguments.connections
    loop_ms = (ticks_after.get(pid, 0) - ticks_before.get(pid, 0)) * per_tick
    other_ms = sum(after - ticks_before.get(thread, 0)
                   for thread, after in ticks_after.items() if thread != pid) * per_tick
    return {"readings": posted, "connections": arguments.connections,
            "watchers": arguments.watchers, "failed": len(failures),
            "per_s": round(posted / elapsed, 1),
            "server_cpu_ms_per_reading": round((loop_ms + other_ms) / posted, 2),
            "event_loop_thread_ms": round(loop_ms / posted, 2),
            "other_threads_ms": round(other_ms / posted, 2),
            "snapshots_received": len(received)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readings", type=int, default=1500)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--watchers", type=int, default=100)
    arguments = parser.parse_args()
    print(reference_line(), file=sys.stderr)
    ref = reference_seconds()
    with tempfile.TemporaryDirectory(prefix="packref-bench-") as data:
        process, url = start_station(Path(data))
        try:
            figures = asyncio.run(measure(url, process.pid, arguments))
        finally:
            process.terminate()
            process.wait(timeout=10)
    figures["reference_ms"] = round(ref * 1000, 1)
    figures["server_cpu_ref"] = round(figures["server_cpu_ms_per_reading"] / (ref * 1000), 3)
    print(f"{figures['readings']} readings over {figures['connections']} connections, "
          f"{figures['watchers']} watchers: {figures['per_s']}/s, {figures['failed']} failed; "
          f"the station's CPU {figures['server_cpu_ms_per_reading']} ms a reading "
          f"({figures['server_cpu_ref']} ref: event loop {figures['event_loop_thread_ms']} ms, "
          f"other threads {figures['other_threads_ms']} ms); "
          f"{figures['snapshots_received']} snapshots received", file=sys.stderr)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
