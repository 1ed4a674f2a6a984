"""Setting up the night from the dashboard: signing in, the devices the station sees, each
table's camera and drone bound while it runs, and removing a table made by mistake.

- ``GET /api/session``: whether the token sent is the organiser's (the sign-in page asks);
- ``GET /api/devices``: the cameras, replays and serial ports to choose from (organiser);
- ``GET /api/tables/ID/sources``: what feeds the table now (its camera, its drone);
- ``PUT /api/tables/ID/camera`` ``{"source": "0" | "/path/replay"}``, ``DELETE`` to stop;
- ``PUT /api/tables/ID/drone`` ``{"port": "/dev/ttyACM0" | "replay://capture.bin"}``, ``DELETE``;
- ``DELETE /api/tables/ID``: a table where nothing happened yet (no game) is removed.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Response, status
from pydantic import BaseModel, Field

from station.api.deps import ServicesDep, TokenDep
from station.api.models import TableId
from station.api.responses import documented
from station.live.bindings import KINDS
from station.live.devices import seen_devices
from station.live.station import UnknownTable
from station.live.table import TableRefusal

router = APIRouter(prefix="/api", tags=["set-up"])
READ = (404, 422)
WRITE = (400, 401, 404, 409, 422)
SOURCE_LENGTH = 1000  # a path or a pyserial URL


class CameraIn(BaseModel):
    """The camera a table is read by: a number (``"0"``: the first) or a replay's path."""

    model_config = {"extra": "forbid"}
    source: Annotated[str, Field(min_length=1, max_length=SOURCE_LENGTH, pattern=r"^[^\x00]*$")]


class DroneIn(BaseModel):
    """The drone board's serial port, or a pyserial URL (``replay://capture.bin``)."""

    model_config = {"extra": "forbid"}
    port: Annotated[str, Field(min_length=1, max_length=SOURCE_LENGTH, pattern=r"^[^\x00]*$")]


class SessionOut(BaseModel):
    organiser: bool


class BoundOut(BaseModel):
    """A source feeding a table: bound here (``dashboard``) or by ``serve``'s options."""

    source: str
    by: Literal["dashboard", "serve"]
    running: bool
    error: str | None = None


class SourcesOut(BaseModel):
    table: str
    camera: BoundOut | None = None
    drone: BoundOut | None = None


class CameraSeen(BaseModel):
    source: str
    kind: Literal["camera", "replay"]
    name: str
    path: str
    table: str | None = None
    owner: str | None = None


class PortSeen(BaseModel):
    port: str
    kind: Literal["serial", "replay"]
    name: str
    table: str | None = None


class DevicesOut(BaseModel):
    cameras: list[CameraSeen]
    serial_ports: list[PortSeen]


@router.get("/session", **documented(SessionOut, 401))
def check_sign_in(author: TokenDep) -> dict[str, Any]:
    """Answers only with the organiser's token (401 otherwise): the sign-in page's check."""
    return {"organiser": True}


@router.get("/devices", **documented(DevicesOut, 401))
def list_devices(services: ServicesDep, author: TokenDep) -> dict[str, Any]:
    """The cameras (``/dev/videoN`` as ``N``), the replays in ``DATA/replays`` and the
    serial ports this station sees, each with the table it feeds here, if any."""
    return seen_devices(services.settings.data_dir, services.bindings.sources_in_use())


def _sources(services: ServicesDep, table_id: str) -> dict[str, Any]:
    services.station.table(table_id)
    return {"table": table_id, **services.bindings.bound(table_id)}


@router.get("/tables/{table_id}/sources", **documented(SourcesOut, *READ))
def read_sources(table_id: TableId, services: ServicesDep) -> dict[str, Any]:
    """What feeds the table now: its camera and its drone (null: none)."""
    return _sources(services, table_id)


@router.put("/tables/{table_id}/camera", **documented(SourcesOut, *WRITE))
def bind_camera(table_id: TableId, body: CameraIn, services: ServicesDep,
                author: TokenDep) -> dict[str, Any]:
    """Read the table from this camera (or replay) from now on, as ``serve --camera`` does;
    400 naming the problem when it cannot be opened or another station owns it."""
    services.bindings.bind_camera(table_id, body.source)
    return _sources(services, table_id)


@router.delete("/tables/{table_id}/camera", **documented(SourcesOut, *WRITE))
def unbind_camera(table_id: TableId, services: ServicesDep, author: TokenDep) -> dict[str, Any]:
    """Stop reading the table's camera (one ``serve`` was given stays: 409)."""
    services.station.table(table_id)
    services.bindings.unbind(table_id, "camera")
    return _sources(services, table_id)


@router.put("/tables/{table_id}/drone", **documented(SourcesOut, *WRITE))
def bind_drone(table_id: TableId, body: DroneIn, services: ServicesDep,
               author: TokenDep) -> dict[str, Any]:
    """Drive the table from the drone board on this port from now on (``serve --drone``)."""
    services.bindings.bind_drone(table_id, body.port)
    return _sources(services, table_id)


@router.delete("/tables/{table_id}/drone", **documented(SourcesOut, *WRITE))
def unbind_drone(table_id: TableId, services: ServicesDep, author: TokenDep) -> dict[str, Any]:
    """Stop the table's drone (one ``serve`` was given stays: 409)."""
    services.station.table(table_id)
    services.bindings.unbind(table_id, "drone")
    return _sources(services, table_id)


@router.delete("/tables/{table_id}", status_code=status.HTTP_204_NO_CONTENT,
               response_class=Response, responses=documented(None, *WRITE)["responses"])
def remove_table(table_id: TableId, services: ServicesDep, author: TokenDep) -> Response:
    """Remove a table made by mistake: only while nothing happened there (no game in its
    record, no tournament game at it; 409 otherwise). Its camera and drone stop."""
    if services.station.store.table(table_id) is None:
        raise UnknownTable(f"there is no table {table_id!r}")
    for kind, bound in services.bindings.bound(table_id).items():
        if bound is not None and bound["by"] == "serve":
            raise TableRefusal(f"table {table_id!r}: its {kind} was given when the station "
                               "started, so it stays")
    services.station.remove_table(table_id)  # refused (409) once something happened there
    for kind in KINDS:  # then its sources stop (they would make it again)
        services.bindings.unbind(table_id, kind)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
