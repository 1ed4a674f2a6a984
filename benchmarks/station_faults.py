"""The station under faults: kill -9 mid-burst, and a camera game through a full disk and a
held database. Loopback only, a temporary data folder, a real ``packref serve`` (SQLite).

``--kills`` (the default part): ``--clients 8`` concurrent clients post ``--writes 400``
camera readings in all to ``--tables 4`` tables, each reading with its own
``Idempotency-Key``; meanwhile the station is killed with SIGKILL ``--kill-count 3``
times, each time started again on the same data folder and port. A client whose answer is
lost (a connection error, or a 503 while the station starts) sends the same request with
the same key again until it is answered. Then every acknowledged (201) reading is read back
from its table's record (``GET /api/tables/ID/events``): stored exactly once, never twice,
the record numbered 1, 2, 3 … with no gap (nothing half-written); every acknowledged
request is sent once more with its key and must get the very answer it got first, and a
retried request's answer must name the events the record holds. It prints the counts and
the time taken.

``--camera``: a camera table replays a recorded Small Warehouse game (frames rendered from
``station/games/small_warehouse/recordings/small-warehouse.camera.json``, with a pause of
still frames after some placements, as players think) through ``packref serve --camera``
on a data folder that is a small tmpfs of its own (so the disk is full for real: mounting
it needs root; without, this part says so and stops). Twice during the game: another
program (a separate sqlite3 connection) holds the database with ``BEGIN IMMEDIATE`` for
``--lock-seconds 7``; then the tmpfs is filled to the last byte for ``--full-seconds 8``
and emptied again. It checks that the table showed each fault in words while it lasted
(the snapshot's ``"sources"``), that the record is whole, and that the game ends with the
same actions and scores as the same replay without faults (run first). While a flag is
up, the health page's checks (``GET /api/health``) are read once a second: they must list
the camera's flag too. The game is dealt by hand (``"deal": "table"``): the station learns
every card from the camera.

Each part prints text on stderr and one JSON line on stdout, with the reference workload's
time (``benchmarks/reference.py``) beside the figures. Each is bounded (``--deadline``, 180
s by default).

Run: ``.venv/bin/python benchmarks/station_faults.py [--kills] [--camera]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx  # noqa: E402
from reference import reference_line, reference_seconds  # noqa: E402

from station.config import DATABASE_FILE  # noqa: E402
from station.demo import camera_fixtures as fixtures  # noqa: E402

TOKEN = "fault-benchmark-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ["Ana", "Ben"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Station:
    """``packref serve`` on a fixed loopback port and data folder, killed and started again."""

    def __init__(self, data: Path, port: int, extra: list[str] | None = None) -> None:
        self.data, self.port, self.extra = data, port, extra or []
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[str] | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self.starts = 0

    def start(self, timeout: float = 60.0) -> dict[str, Any]:
        """Start it and wait for its first line (it serves from then on)."""
        for _ in range(50):  # the port of a killed station may take a moment to free
            self.process = subprocess.Popen(
                [sys.executable, "-m", "station", "serve", "--port", str(self.port),
                 "--data", str(self.data), *self.extra],
                cwd=REPO, env=dict(os.environ, PACKREF_TOKEN=TOKEN), stdout=subprocess.PIPE,
                stderr=self.log, text=True, start_new_session=True)
            line = self.process.stdout.readline() if self.process.stdout else ""
            if line:
                self.starts += 1
                return json.loads(line)
            self.process.wait(timeout=timeout)
            time.sleep(0.2)
        raise SystemExit(f"packref serve did not start: {self.said()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL to the station and its worker processes (its own process group): no
        shutdown, no flush, as a pulled plug (the OS keeps what was written)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop it as Ctrl-C would; its group killed if it does not stop within 20 s."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=20)
        # a worker process left behind by the station's end (or by a kill)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def said(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def close(self) -> None:
        self.stop()
        self.log.close()


# -- --kills: kill -9 mid-burst, clients retrying with their keys ---------------------------

@dataclass
class Write:
    """One reading to post, and what became of it."""

    table: str
    number: int
    key: str
    status: int | None = None
    body: Any = None
    attempts: int = 0
    lost: int = 0  # answers lost: a connection error, or a 503 while starting
    last_sent: float = 0.0  # when the last attempt was sent (wall clock)

    def request(self) -> dict[str, Any]:
        return {"observation": {"kind": "frame", "n": self.number}, "source": "camera"}


@dataclass
class Burst:
    writes: list[Write]
    kills: list[float] = field(default_factory=list)  # seconds into the burst


async def post_until_answered(api: httpx.AsyncClient, write: Write, deadline: float) -> None:
    """POST ``write`` until the station answers it (the same key each time)."""
    while time.monotonic() < deadline:
        write.attempts += 1
        write.last_sent = time.time()
        try:
            answer = await api.post(f"/api/tables/{write.table}/observations",
                                    json=write.request(),
                                    headers={"Idempotency-Key": write.key})
        except httpx.HTTPError:
            write.lost += 1
            await asyncio.sleep(0.2)
            continue
        if answer.status_code == 503:  # busy, or starting: answered "try again"
            write.lost += 1
            await asyncio.sleep(0.1)
            continue
        write.status, write.body = answer.status_code, answer.json()
        return


async def client(api: httpx.AsyncClient, queue: list[Write], deadline: float) -> None:
    while queue:
        await post_until_answered(api, queue.pop(0), deadline)


async def killer(station: Station, burst: Burst, count: int, began: float,
                 answered: list[Write], total: int) -> None:
    """Kill the station ``count`` times at spread moments of the burst, restarting it each
    time (the start runs in a thread: the clients keep trying meanwhile)."""
    for index in range(count):
        target = total * (index + 1) // (count + 1)  # kill once this many are answered
        while sum(1 for w in answered if w.status is not None) < target:
            await asyncio.sleep(0.01)
        station.kill()
        burst.kills.append(round(time.monotonic() - began, 2))
        await asyncio.to_thread(station.start)


async def read_record(api: httpx.AsyncClient, table: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        page = (await api.get(f"/api/tables/{table}/events",
                              params={"after": events[-1]["seq"] if events else 0,
                                      "limit": 5000})).json()
        if not page:
            return events
        events += page


def check_record(tables: list[str], records: list[list[dict[str, Any]]],
                 writes: list[Write]) -> dict[str, Any]:
    """Counts of what is stored for each acknowledged write, and the record's soundness."""
    stored: Counter[tuple[str, int]] = Counter()
    half_written = 0
    by_seq: dict[tuple[str, int], dict[str, Any]] = {}
    for table, record in zip(tables, records, strict=True):
        if [event["seq"] for event in record] != list(range(1, len(record) + 1)):
            half_written += 1  # a gap or a repeat in the numbering
        for event in record:
            by_seq[(table, event["seq"])] = event
            observation = event.get("observation") or {}
            if event["kind"] == "observation" and observation.get("kind") == "frame":
                if set(observation) != {"kind", "n"}:
                    half_written += 1
                stored[(table, int(observation["n"]))] += 1
    acknowledged = [w for w in writes if w.status == 201]
    sent = {(w.table, w.number) for w in writes}
    # a retry answered from the receipt of an attempt whose answer was lost: its events
    # were stored before that retry was sent
    first_answers = sum(1 for w in acknowledged if w.attempts > 1 and any(
        datetime.fromisoformat(event["at"]).timestamp() < w.last_sent
        for event in w.body["events"]))
    answers_match_record = all(
        all(by_seq.get((w.table, event["seq"])) == event for event in w.body["events"])
        for w in acknowledged)
    return {"acknowledged": len(acknowledged),
            "stored_once": sum(1 for w in acknowledged if stored[(w.table, w.number)] == 1),
            "stored_twice_or_more": sum(1 for w in acknowledged
                                        if stored[(w.table, w.number)] > 1),
            "missing": sum(1 for w in acknowledged if stored[(w.table, w.number)] == 0),
            "stored_never_sent": sum(1 for key in stored if key not in sent),
            "half_written": half_written, "answers_match_record": answers_match_record,
            "retried_answered_from_first_write": first_answers}


async def resend_all(api: httpx.AsyncClient, writes: list[Write]) -> int:
    """Send every acknowledged write once more with its key: how many got another answer
    than their first (status and body)."""
    differing = 0
    for write in writes:
        if write.status != 201:
            continue
        again = await api.post(f"/api/tables/{write.table}/observations",
                               json=write.request(), headers={"Idempotency-Key": write.key})
        if again.status_code != write.status or again.json() != write.body:
            differing += 1
    return differing


async def burst_run(station: Station, arguments: argparse.Namespace) -> dict[str, Any]:
    tables = [f"burst-{index}" for index in range(arguments.tables)]
    run = f"{random.getrandbits(32):08x}"
    writes = [Write(tables[n % len(tables)], n, f"burst-{run}-{n}")
              for n in range(1, arguments.writes + 1)]
    async with httpx.AsyncClient(base_url=station.url, headers=AUTH, timeout=30) as api:
        for table in tables:
            (await api.post("/api/tables", json={"name": table, "id": table, "game": {
                "game": "small-warehouse", "players": PLAYERS, "seed": 1}})).raise_for_status()
        burst = Burst(writes)
        queues = [writes[index::arguments.clients] for index in range(arguments.clients)]
        began = time.monotonic()
        deadline = began + arguments.deadline
        kill_task = asyncio.create_task(killer(station, burst, arguments.kill_count, began,
                                               writes, len(writes)))
        await asyncio.gather(*(client(api, queue, deadline) for queue in queues))
        elapsed = time.monotonic() - began
        await kill_task
        records = [await read_record(api, table) for table in tables]
        differing = await resend_all(api, writes)
    figures = {"clients": arguments.clients, "tables": arguments.tables,
               "sent": len(writes), "kills": len(burst.kills), "killed_at_s": burst.kills,
               "starts": station.starts,
               "retried": sum(1 for w in writes if w.attempts > 1),
               "lost_answers": sum(w.lost for w in writes),
               "unanswered": sum(1 for w in writes if w.status is None),
               "refused": dict(Counter(str(w.status) for w in writes
                                       if w.status not in (None, 201))),
               "resent_with_another_answer": differing, "seconds": round(elapsed, 2)}
    return figures | check_record(tables, records, writes)


def measure_kills(arguments: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="packref-faults-") as data:
        station = Station(Path(data), free_port())
        station.start()
        try:
            figures = asyncio.run(burst_run(station, arguments))
        finally:
            station.close()
    figures["sound"] = (figures["acknowledged"] == figures["sent"] == figures["stored_once"]
                        and figures["stored_twice_or_more"] == figures["missing"]
                        == figures["half_written"] == figures["resent_with_another_answer"]
                        == figures["stored_never_sent"] == 0
                        and figures["answers_match_record"])
    print(f"kill -9 x{figures['kills']} mid-burst: {figures['sent']} readings sent by "
          f"{figures['clients']} clients to {figures['tables']} tables, "
          f"{figures['acknowledged']} acknowledged, {figures['retried']} retried "
          f"({figures['lost_answers']} answers lost; "
          f"{figures['retried_answered_from_first_write']} retries answered with the first "
          f"write's answer); stored once {figures['stored_once']}, "
          f"twice {figures['stored_twice_or_more']}, missing {figures['missing']}, "
          f"half-written {figures['half_written']}; resent with another answer "
          f"{figures['resent_with_another_answer']}; {figures['seconds']} s", file=sys.stderr)
    return figures


# -- --camera: a camera game through a held database and a full disk -----------------------

SCRIPT = (REPO / "station" / "games" / "small_warehouse" / "recordings"
          / "small-warehouse.camera.json")
PAUSE_FRAMES = 30  # still frames after a placement: players thinking (the fault begins then)
TMPFS_MB = 48


def render_replay(script: dict[str, Any], folder: Path) -> list[Any]:
    """The script's frames rendered into ``folder``; its frame plan."""
    renderer = fixtures.Renderer(script, folder)
    for _ in renderer:
        pass
    return renderer.plan


def paced_replay(plan: list[Any], rendered: Path, folder: Path, pauses: list[int]) -> Path:
    """The rendered frames again, with ``PAUSE_FRAMES`` copies of the last frame of each
    state in ``pauses`` after it (a table where nobody moves for a while)."""
    folder.mkdir()
    order = 0
    for index, frame in enumerate(plan):
        copies = 1
        last_of_state = index + 1 == len(plan) or plan[index + 1].state != frame.state
        if last_of_state and frame.state in pauses:
            copies += PAUSE_FRAMES
        for _ in range(copies):
            os.link(rendered / f"{index:04d}.jpg", folder / f"{order:05d}.jpg")
            order += 1
    return folder


def mount_small_disk(where: Path, megabytes: int) -> None:
    """A tmpfs of its own at ``where``: a disk that can be filled for real (needs root)."""
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs",
                           str(where)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit("--camera needs to mount a small tmpfs (root): "
                         + (done.stderr.strip() or "mount failed"))


def unmount(where: Path) -> None:
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


def hold_database(database: Path, seconds: float, held: list[float]) -> None:
    """Another program's write transaction on the station's database for ``seconds``."""
    connection = sqlite3.connect(database, timeout=30, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        held.append(time.monotonic())
        time.sleep(seconds)
        connection.execute("ROLLBACK")
        held.append(time.monotonic())
    finally:
        connection.close()


def fill_disk(folder: Path, seconds: float, held: list[float]) -> None:
    """Fill ``folder``'s file system to the last byte for ``seconds``, then empty it again."""
    filler = folder / "filler.bin"
    with open(filler, "wb", buffering=0) as out:
        for chunk in (1 << 20, 1 << 12, 1):
            block = b"\0" * chunk
            try:
                while True:
                    out.write(block)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
    held.append(time.monotonic())
    time.sleep(seconds)
    filler.unlink()
    held.append(time.monotonic())


@dataclass
class CameraRun:
    """What a camera game showed: its last snapshot, the flags seen and when."""

    snapshot: dict[str, Any] = field(default_factory=dict)
    flags: list[tuple[float, str]] = field(default_factory=list)
    record: list[dict[str, Any]] = field(default_factory=list)
    faults: dict[str, list[float]] = field(default_factory=dict)
    health: list[tuple[float, str, list[str]]] = field(default_factory=list)
    seconds: float = 0.0

    def look(self, api: httpx.Client, began: float) -> None:
        """Note the table's flags, and the health page's checks while one is up (at most
        once a second: the health report runs the doctor's checks)."""
        now = round(time.monotonic() - began, 2)
        flagged = [s["words"] for s in self.snapshot.get("sources", []) if s["words"]]
        for words in flagged:
            if not self.flags or self.flags[-1][1] != words:
                self.flags.append((now, words))
        if flagged and (not self.health or now - self.health[-1][0] >= 1.0):
            report = api.get("/api/health").json()
            self.health.append((now, report["status"], [
                f"{check['name']}: {check['summary']}" for check in report["checks"]
                if not check["ok"]]))


def camera_game(data: Path, replay: Path, script: dict[str, Any], deadline_s: float,
                faults: dict[int, Any] | None = None, hand_dealt: bool = True) -> CameraRun:
    """``packref serve --camera`` plays the replay at table ``cam`` on ``data``; each
    ``faults[k]`` (a function of the data folder and a list to note its times in) starts in
    a thread once the table has ``k`` actions."""
    station = Station(data, free_port(), ["--camera", f"cam={replay}"])
    run, threads = CameraRun(), []
    faults = dict(faults or {})
    station.start()
    began = time.monotonic()
    try:
        with httpx.Client(base_url=station.url, headers=AUTH, timeout=30) as api:
            api.post("/api/tables/cam/games", json={
                "game": script["game"], "players": script["players"], "deal": "table",
                **({"deal": "table"} if hand_dealt else {"seed": script["seed"]})}
                ).raise_for_status()
            while time.monotonic() - began < deadline_s:
                run.snapshot = api.get("/api/tables/cam").json()
                game = run.snapshot["game"]
                run.look(api, began)
                for actions in [k for k in faults if game["actions"] >= k]:
                    name, start = faults.pop(actions)
                    run.faults[name] = noted = []
                    threads.append(threading.Thread(target=start, args=(data, noted)))
                    threads[-1].start()
                if game["over"] and not faults and not any(t.is_alive() for t in threads):
                    break
                time.sleep(0.1)
            run.seconds = time.monotonic() - began
            for thread in threads:
                thread.join()
            run.record = read_record_sync(api, "cam")
            run.snapshot = api.get("/api/tables/cam").json()
    finally:
        station.close()
    run.faults = {name: [round(t - began, 2) for t in times] for name, times in run.faults.items()}
    return run


def read_record_sync(api: httpx.Client, table: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while page := api.get(f"/api/tables/{table}/events", params={
            "after": events[-1]["seq"] if events else 0, "limit": 5000}).json():
        events += page
    return events


def game_result(run: CameraRun) -> dict[str, Any]:
    """What must be the same with and without faults: the actions and the scores."""
    game = run.snapshot["game"]
    return {"over": game["over"], "actions": [e["action"] for e in run.record
                                              if e["kind"] == "action"],
            "scores": {s["player"]: s["total"] for s in game["scores"]},
            "winners": game["winners"]}


def measure_camera(arguments: argparse.Namespace) -> dict[str, Any]:
    script = fixtures.read_script(SCRIPT)
    lock_at, full_at = 3, 8  # the faults begin in the pauses after these placements
    with tempfile.TemporaryDirectory(prefix="packref-faults-camera-") as work_dir:
        work = Path(work_dir)
        plan = render_replay(script, work / "rendered")
        replay = paced_replay(plan, work / "rendered", work / "replay", [lock_at, full_at])
        (work / "plain").mkdir()
        plain = camera_game(work / "plain", replay, script, arguments.deadline / 2)
        disk = work / "disk"
        mount_small_disk(disk, TMPFS_MB)
        try:
            lock_s, full_s = arguments.lock_seconds, arguments.full_seconds
            faulty = camera_game(disk, replay, script, arguments.deadline / 2, {
                lock_at: ("lock", lambda data, noted: hold_database(
                    data / DATABASE_FILE, lock_s, noted)),
                full_at: ("full", lambda data, noted: fill_disk(data, full_s, noted))})
        finally:
            unmount(disk)
    return camera_figures(script, plain, faulty, arguments)


def flagged_during(run: CameraRun, span: list[float], words: str,
                   grace_s: float = 8.0) -> list[str]:
    """The flags naming ``words`` first seen while a fault lasted (or soon after: a write
    waits out the database's busy wait, 5 s, before it fails)."""
    if len(span) < 2:
        return []
    return [said for at, said in run.flags
            if span[0] <= at <= span[1] + grace_s and words in said]


def on_health_page(figures: dict[str, Any]) -> bool:
    """Whether the health page listed the camera's flag of each fault."""
    said = " ".join(figures["health_said"])
    return "database is locked" in said and "disk is full" in said


def camera_figures(script: dict[str, Any], plain: CameraRun, faulty: CameraRun,
                   arguments: argparse.Namespace) -> dict[str, Any]:
    seqs = [event["seq"] for event in faulty.record]
    figures = {
        "game": script["game"], "players": script["players"], "deal": "table",
        "lock_seconds": arguments.lock_seconds, "full_seconds": arguments.full_seconds,
        "faults_at_s": faulty.faults, "flags": faulty.flags,
        "health_said": sorted({line for _, _, lines in faulty.health for line in lines}),
        "flagged_while_locked": flagged_during(faulty, faulty.faults.get("lock", []),
                                               "database is locked"),
        "flagged_while_full": flagged_during(faulty, faulty.faults.get("full", []),
                                             "disk is full"),
        "record_whole": seqs == list(range(1, len(seqs) + 1)),
        "plain": game_result(plain), "faulty": game_result(faulty),
        "plain_seconds": round(plain.seconds, 2), "seconds": round(faulty.seconds, 2),
        "flag_cleared": not any(s["words"] for s in faulty.snapshot.get("sources", []))}
    figures["ends_right"] = (figures["plain"] == figures["faulty"] and figures["plain"]["over"]
                             and figures["faulty"]["scores"] == script["final_scores"])
    figures["sound"] = bool(figures["ends_right"] and figures["record_whole"]
                            and figures["flagged_while_locked"]
                            and figures["flagged_while_full"] and figures["flag_cleared"]
                            and on_health_page(figures))
    print(f"camera game ({script['game']}, {len(figures['plain']['actions'])} actions) "
          f"through a {arguments.lock_seconds:g} s database lock and a full disk for "
          f"{arguments.full_seconds:g} s: flagged while locked "
          f"{figures['flagged_while_locked']}; while full {figures['flagged_while_full']}; "
          f"on the health page too: {on_health_page(figures)}; "
          f"record whole {figures['record_whole']}; ends as without faults "
          f"{figures['ends_right']} (scores {figures['faulty']['scores']}); "
          f"{figures['seconds']} s (without faults {figures['plain_seconds']} s)",
          file=sys.stderr)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", action="store_true", help="the kill -9 part (default)")
    parser.add_argument("--camera", action="store_true",
                        help="the camera game through a full disk and a held database")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--writes", type=int, default=400, help="readings in all")
    parser.add_argument("--kill-count", type=int, default=3)
    parser.add_argument("--lock-seconds", type=float, default=7.0)
    parser.add_argument("--full-seconds", type=float, default=8.0)
    parser.add_argument("--deadline", type=float, default=180.0,
                        help="seconds each part may take at most")
    arguments = parser.parse_args()
    parts = [name for name in ("kills", "camera") if getattr(arguments, name)] or ["kills"]
    print(reference_line(), file=sys.stderr)
    ref = reference_seconds()
    figures: dict[str, Any] = {"reference_ms": round(ref * 1000, 1)}
    if "kills" in parts:
        figures["kills"] = measure_kills(arguments)
        figures["kills"]["seconds_ref"] = round(figures["kills"]["seconds"] / ref, 1)
    if "camera" in parts:
        figures["camera"] = measure_camera(arguments)
        figures["camera"]["seconds_ref"] = round(figures["camera"]["seconds"] / ref, 1)
    print(json.dumps(figures))
    sys.exit(0 if all(part.get("sound") for name, part in figures.items()
                      if name != "reference_ms") else 1)


if __name__ == "__main__":
    main()
