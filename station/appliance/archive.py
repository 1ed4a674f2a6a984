"""The game archive: each game's events, the camera frame behind every ruling and flag,
and the final scores — what an organiser opens when a player disputes a ruling.

Frames are kept by a :class:`FrameKeeper`, which the camera source calls around
each observation it hands to the table (``station.live.camera``'s keeper seam):
``mark()`` before, ``keep(mark, item, frame)`` after. When the observation led to
a ruling (an ``action`` event) or a flag — their ``cause`` is the observation's
seq — the frame is written as ``DATA/archive/frames/TABLE/GAME/SEQ.jpg`` (GAME:
the seq of the game's ``game`` event, SEQ: the observation's). Every frame
together stays within ``ARCHIVE.budget_mb``: whole games go, oldest first (never
the game being played).

:func:`table_archive` makes the ZIP of a table (``GET /api/tables/ID/archive``,
``packref table archive ID --out FILE``)::

    manifest.json                  the table, and per game: players, final scores,
                                   winners, and every ruling and flag with its photo
    games/0001-small-warehouse/events.jsonl    that game's events, in order
    games/0001-small-warehouse/photos/0007.jpg the frame behind event 7's rulings
"""

from __future__ import annotations

import io
import json
import logging
import shutil
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import cv2

from station.appliance.config import ARCHIVE, ArchiveLimits
from station.live.sources import demo_table_id
from station.live.table import LiveTable
from station.private import private_dir, write_private

LOG = logging.getLogger("packref.archive")
FRAMES = "frames"
RULINGS = ("action", "flag")


class RecentFrames:
    """The latest camera frame of each table in this process (the health page's kit check
    looks at it while the station owns the camera)."""

    def __init__(self) -> None:
        self._frames: dict[str, tuple[float, Any]] = {}
        self._lock = threading.Lock()

    def note(self, table_id: str, frame: Any) -> None:
        with self._lock:
            self._frames[table_id] = (time.monotonic(), frame)

    def latest(self) -> tuple[str, float, Any] | None:
        """(table, seconds since, frame) of the newest frame, or None."""
        with self._lock:
            if not self._frames:
                return None
            table, (at, frame) = max(self._frames.items(), key=lambda entry: entry[1][0])
        return table, time.monotonic() - at, frame


RECENT_FRAMES = RecentFrames()


def frames_dir(archive_root: Path, table_id: str, game_seq: int | None = None) -> Path:
    folder = archive_root / FRAMES / table_id
    return folder if game_seq is None else folder / f"{game_seq:06d}"


class FrameKeeper:
    """Saves the camera frame behind each ruling and flag of one table (see the module)."""

    def __init__(self, station: Any, table_id: str, archive_root: Path,
                 limits: ArchiveLimits = ARCHIVE) -> None:
        self.station = station
        self.table_id = table_id
        self.root = archive_root
        self.limits = limits
        self.kept = 0

    def __repr__(self) -> str:
        return f"<FrameKeeper {self.table_id} {self.kept} frames>"

    def mark(self) -> int:
        """The table's last event before an item is handed on."""
        return self.station.table(self.table_id).last_seq

    def keep(self, mark: int, item: Any, frame: Any) -> Path | None:
        """Save ``frame`` if the item's observation (stored after ``mark``) led to a
        ruling or a flag; the file written, or None."""
        if frame is None or item.observation is None:
            return None
        RECENT_FRAMES.note(self.table_id, frame)
        events = self.station.store.events(self.table_id, after=mark)
        cause = next((event.seq for event in events if event.kind == "observation"
                      and event.payload.get("observation") == item.observation), None)
        if cause is None or not any(event.kind in RULINGS and event.payload.get("cause") == cause
                                    for event in events):
            return None
        current = self.station.table(self.table_id).current
        game_seq = current.seq if current is not None else 0
        path = frames_dir(self.root, self.table_id, game_seq) / f"{cause:06d}.jpg"
        _write_jpeg(path, frame, self.limits.jpeg_quality)
        self.kept += 1
        prune(self.root, self.limits.budget_mb * 1e6, keep=path.parent)
        return path


def _write_jpeg(path: Path, frame: Any, quality: int) -> None:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("the frame could not be encoded as JPEG")
    private_dir(path.parent)  # the archive's folders and photos: the owner's only
    write_atomically(path, data.tobytes())


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file, then a rename),
    readable by its owner only: a photo of the table, or a whole game's record."""
    write_private(path, data)


def _size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def prune(archive_root: Path, budget_bytes: float, keep: Path | None = None) -> list[Path]:
    """Remove whole games' frames, oldest first, until all of them fit ``budget_bytes``
    (``keep``: a game's folder never removed, the one being played); returns those removed."""
    root = archive_root / FRAMES
    if not root.exists():
        return []
    games = [folder for table in root.iterdir() if table.is_dir()
             for folder in table.iterdir() if folder.is_dir()]
    sizes = {folder: _size(folder) for folder in games}
    total = sum(sizes.values())
    removed = []
    for folder in sorted(games, key=_started):
        if total <= budget_bytes:
            break
        if keep is not None and folder.resolve() == keep.resolve():
            continue
        shutil.rmtree(folder, ignore_errors=True)
        total -= sizes[folder]
        removed.append(folder)
        LOG.info("archive over its budget: removed the frames of %s", folder)
    return removed


def _started(folder: Path) -> float:
    """When a game's frames began: its oldest file's time (the folder's own if empty)."""
    times = [path.stat().st_mtime for path in folder.iterdir() if path.is_file()]
    return min(times) if times else folder.stat().st_mtime


# ------------------------------------------------------------------------------ the ZIP
def _games(events: list[Any]) -> list[list[Any]]:
    """The events split per game (each list starts with its ``game`` event)."""
    games: list[list[Any]] = []
    for event in events:
        if event.kind == "game":
            games.append([event])
        elif games:
            games[-1].append(event)
    return games


def _results(station: Any, table_id: str, events: list[Any]) -> dict[int, dict[str, Any]]:
    """Each game's result by the seq of its ``game`` event: scores, winners, over."""
    table = LiveTable.rebuild(station.store.table(table_id), events)
    summaries = list(table.past_games)
    if table.current is not None:
        summaries.append(table.current.summary())
    return {summary["seq"]: {"over": summary["over"], "winners": summary["winners"],
                             "final_scores": {s["player"]: s["total"]
                                              for s in summary["scores"]}}
            for summary in summaries}


def table_archive(station: Any, table_id: str, archive_root: Path) -> bytes:
    """The table's archive as ZIP bytes (see the module); UnknownTable if there is none."""
    station.table(table_id)  # an unknown table raises here
    events = station.store.events(table_id)
    results = _results(station, table_id, events)
    manifest: dict[str, Any] = {"table": station.store.table(table_id).to_json(), "games": []}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for game in _games(events):
            manifest["games"].append(_add_game(archive, game, results, archive_root, table_id))
        archive.writestr("manifest.json", json.dumps(manifest, indent=1, ensure_ascii=False))
    return buffer.getvalue()


def _add_game(archive: zipfile.ZipFile, game: list[Any], results: dict[int, dict[str, Any]],
              archive_root: Path, table_id: str) -> dict[str, Any]:
    start = game[0]
    folder = f"games/{start.seq:04d}-{start.payload.get('game', 'game')}"
    archive.writestr(f"{folder}/events.jsonl", "".join(
        json.dumps(event.to_json(), ensure_ascii=False) + "\n" for event in game))
    frames = frames_dir(archive_root, table_id, start.seq)
    rulings = []
    for event in game:
        if event.kind not in RULINGS:
            continue
        cause = event.payload.get("cause")
        photo = frames / f"{cause:06d}.jpg" if isinstance(cause, int) else None
        name = None
        if photo is not None and photo.exists():
            name = f"{folder}/photos/{cause:04d}.jpg"
            if name not in archive.namelist():
                archive.write(photo, name, compress_type=zipfile.ZIP_STORED)
        rulings.append({"seq": event.seq, "kind": event.kind, "at": event.at.isoformat(),
                        "author": event.author, "action": event.payload.get("action"),
                        "reason": event.payload.get("reason"), "cause": cause, "photo": name})
    return {"seq": start.seq, "game": start.payload.get("game"),
            "players": start.payload.get("players"), "started_at": start.at.isoformat(),
            "events": len(game), "folder": folder, **results.get(start.seq, {}),
            "rulings": rulings}


def write_table_archive(station: Any, table_id: str, archive_root: Path, out: Path) -> int:
    """Write the table's archive to ``out`` atomically; its size in bytes."""
    data = table_archive(station, table_id, archive_root)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(out, data)
    return len(data)


def keep_demo_frames(station: Any, recordings: list[Any], archive_root: Path) -> None:
    """Give each demo camera recording a keeper for its table (``packref demo``)."""
    for recording in recordings:
        if hasattr(recording, "keeper"):
            recording.keeper = FrameKeeper(station, demo_table_id(recording), archive_root)
