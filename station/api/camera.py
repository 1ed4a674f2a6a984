"""A table's camera check: its latest frame, the reading of it, and the page that shows both.

``GET /api/tables/ID/camera``          the reading (§6 mats, where each lies) and its time
``GET /api/tables/ID/camera.png``      the frame with the reading drawn (``overlay=0``: raw)
``GET /api/tables/ID/camera.zip``      for a bug report: raw frame, overlay, reading, MATS.json
``PUT /api/tables/ID/camera/mats``     the game whose kit mats to look for before a game
``/tables/ID/camera``                  the page (refreshed a few times a second)

**The organiser's only.** The frame is the whole table under the camera, whatever lies
there: a card lifted to be peeked at, a Removal box turned over, a hand held low. The
public view cuts such things out of every answer ("What is public" in
``docs/station.md``); a photo cannot be cut so, so every camera route needs the
organiser's token. The page itself is public HTML that asks for the token, as the
referee's box does.
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from pathlib import Path
from typing import Annotated, Any

import cv2
import numpy as np
from fastapi import APIRouter, HTTPException, Query, Request, Response, status
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from station.api.deps import StationDep, TokenDep
from station.api.models import Strict, TableId
from station.api.responses import documented, errors_beside
from station.live.camera import camera_games
from station.live.camera_view import CameraFrame, CameraView
from station.live.station import Station
from vision.overlay import MAX_WIDTH, draw_reading

TEMPLATES = Jinja2Templates(directory=Path(__file__).resolve().parent.parent / "web" / "templates")
router = APIRouter(tags=["camera"])
Width = Annotated[int, Query(ge=0, le=8192, description="the most pixels wide (0: as read)")]


class MatsLookedForOut(BaseModel):
    """Which mats the camera reads, and why."""

    game: str | None = Field(description="the game whose mats they are")
    because: str = Field(description="'game': the game at the table; 'chosen': the kit's "
                         "mats of the game chosen on the camera page; 'none': no mats yet")
    mats: list[dict[str, Any]] = Field(description="each mat: id, rows, cols, kind, label")


class CameraOut(BaseModel):
    """A table's camera: what it looks for, and its latest frame's reading."""

    table: str
    source: str = Field(description="the camera's number or the replay (serve --camera)")
    status: str = Field(description="how the camera goes, in words")
    chosen: str | None = Field(description="the game chosen on the page (before a game)")
    games: list[str] = Field(description="the games whose mats the camera reads")
    looked_for: MatsLookedForOut
    frame: int | None = Field(description="the latest frame's number (from 1); None: none yet")
    at: float | None = Field(None, description="when it was read, seconds since the epoch")
    age_s: float | None = Field(None, description="how long ago it was read, in seconds")
    width: int | None = None
    height: int | None = None
    mats: list[dict[str, Any]] = Field(
        default_factory=list, description="its reading: one entry per mat, as "
        "'packref vision read' prints them (docs/contracts.md §6)")
    geometry: list[dict[str, Any]] = Field(
        default_factory=list, description="where each mat found lies in the frame, in "
        "pixels: its grid's corners, outline and every cell's centre")


class MatsChoice(Strict):
    """The game whose kit mats the camera looks for while the table has no game."""

    game: str | None = Field(description="a game the camera reads; null: none")


def camera_of(station: Station, table_id: str) -> CameraView:
    """The table's camera view; 404 for an unknown table or one without a camera."""
    station.table(table_id)  # an unknown table: 404 (UnknownTable)
    view = station.cameras.get(table_id)
    if view is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND,
                            f"table {table_id!r} has no camera: start the station with "
                            f"'packref serve --camera {table_id}=SOURCE'")
    return view


def latest_frame(view: CameraView) -> CameraFrame:
    frame = view.latest()
    if frame is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND,
                            f"table {view.table_id!r}'s camera has given no frame yet "
                            f"({view.status()})")
    return frame


def camera_out(view: CameraView) -> dict[str, Any]:
    """The camera's JSON answer (:class:`CameraOut`)."""
    frame = view.latest()
    looked_for = (frame.looked_for if frame is not None else view.looked_for()).to_json()
    answer: dict[str, Any] = {
        "table": view.table_id, "source": view.source, "status": view.status(),
        "chosen": view.chosen(), "games": camera_games(), "looked_for": looked_for,
        "frame": None if frame is None else frame.number}
    if frame is not None:
        answer.update(at=round(frame.at, 3), age_s=round(max(0.0, time.time() - frame.at), 3),
                      width=int(frame.image.shape[1]), height=int(frame.image.shape[0]),
                      mats=frame.mats,
                      geometry=[geometry.to_json() for geometry in frame.geometry.values()])
    return answer


def png(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    if not ok:  # pragma: no cover - OpenCV encodes any BGR frame
        raise RuntimeError("the frame could not be encoded as PNG")
    return data.tobytes()


def frame_png(view: CameraView, frame: CameraFrame, overlay: bool, width: int) -> bytes:
    """The frame as PNG, the reading drawn on it or not, at most ``width`` wide (0: full)."""
    def make() -> bytes:
        if overlay:
            return png(draw_reading(frame.image, frame.mats, frame.geometry, width))
        if width and frame.image.shape[1] > width:
            return png(draw_reading(frame.image, [], {}, width))  # shrunk, nothing drawn
        return png(frame.image)

    return view.remembered(frame, ("png", overlay, width), make)


@router.get("/api/tables/{table_id}/camera", **documented(CameraOut, 401, 404, 422))
def camera_reading(table_id: TableId, station: StationDep, _author: TokenDep) -> dict[str, Any]:
    """The latest frame's reading (the mats as ``packref vision read`` gives them, and where
    each lies) and when it was read; 404 when the table has no camera. The organiser's:
    the frame shows the whole table (see the module)."""
    return camera_out(camera_of(station, table_id))


@router.get("/api/tables/{table_id}/camera.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}}, **errors_beside(401, 404, 422)})
def camera_picture(table_id: TableId, station: StationDep, _author: TokenDep,
                   overlay: bool = True, width: Width = MAX_WIDTH) -> Response:
    """The latest frame as PNG, with its reading drawn on it (``overlay=0``: as read):
    each mat outlined with its number, every cell's class (``?`` in red), each tag's id.
    ``width``: the most pixels wide (default 960; 0: the frame's own size)."""
    view = camera_of(station, table_id)
    frame = latest_frame(view)
    return Response(frame_png(view, frame, overlay, width), media_type="image/png",
                    headers={"Cache-Control": "no-store", "X-Packref-Frame": str(frame.number)})


@router.get("/api/tables/{table_id}/camera.zip", response_class=Response,
            responses={200: {"content": {"application/zip": {}}}, **errors_beside(401, 404, 422)})
def camera_bundle(table_id: TableId, station: StationDep, _author: TokenDep) -> Response:
    """For a bug report, one frame: ``frame.png`` (as read, full size), ``overlay.png`` (its
    reading drawn, full size), ``reading.json`` (the camera's answer) and ``MATS.json``
    (so ``packref vision read frame.png --mats MATS.json`` reads it again)."""
    view = camera_of(station, table_id)
    frame = latest_frame(view)
    answer = camera_out(view)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("frame.png", frame_png(view, frame, False, 0))
        bundle.writestr("overlay.png", frame_png(view, frame, True, 0))
        bundle.writestr("reading.json", json.dumps(answer, indent=1) + "\n")
        bundle.writestr("MATS.json", json.dumps(frame.looked_for.mats_file()) + "\n")
    name = f"{table_id}-camera-{frame.number}.zip"
    return Response(buffer.getvalue(), media_type="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.put("/api/tables/{table_id}/camera/mats", **documented(CameraOut, 401, 404, 422))
def choose_mats(table_id: TableId, choice: MatsChoice, station: StationDep,
                _author: TokenDep) -> dict[str, Any]:
    """Before a game starts, look for the kit's mats of ``game`` (null: none); the game at
    the table, once started, decides the mats instead. Kept until the station stops."""
    view = camera_of(station, table_id)
    games = camera_games()
    if choice.game is not None and choice.game not in games:
        raise HTTPException(422, f"$.game: the camera reads {', '.join(games)}, "
                            f"not {choice.game!r}")
    view.choose(choice.game)
    return camera_out(view)


@router.get("/tables/{table_id}/camera", response_class=HTMLResponse, include_in_schema=False)
def camera_page(request: Request, table_id: str, station: StationDep) -> HTMLResponse:
    """The camera check page: the frame with its reading, refreshed live (organiser's
    token asked for on the page)."""
    snapshot = station.snapshot(table_id)
    view = station.cameras.get(table_id)
    return TEMPLATES.TemplateResponse(request, "camera.html", {
        "table": snapshot["table"], "has_camera": view is not None, "games": camera_games(),
        "max_width": MAX_WIDTH})
