"""What routes depend on, as named ``Annotated`` aliases (FastAPI full-stack template style).

``Services`` is the station's composition: settings, database, event store,
station, hub, clock. Tests build one with a temporary database and a
:class:`~station.store.FixedClock`, and hand it to :func:`~station.api.create_app`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request, WebSocket, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from station.appliance.setup import archive_dir
from station.config import Settings
from station.live.advisor import LiveAdvisor
from station.live.bindings import Bindings
from station.live.hub import Hub
from station.live.pacing import SNAPSHOT_INTERVAL
from station.live.station import Station
from station.store import Clock, Database, EventStore, SystemClock, open_database
from station.store.spool import Spool
from station.tournament.hints import hints_refusal

AUTHOR_HEADER = "X-Packref-Author"
NEEDS_TOKEN = ("writes need the organiser's token: send 'Authorization: Bearer TOKEN' "
               "(in a browser: sign in at /sign-in)")
NO_TOKEN_YET = ("writes need the organiser's token, and none is issued yet: run "
                "'packref token --new' at the station's own terminal")
# Declares the organiser's token in the OpenAPI description; the check is organiser_author's.
ORGANISER_TOKEN = HTTPBearer(auto_error=False, scheme_name="organiser",
                             description="The organiser's token (writes only)")


@dataclass
class Services:
    """Everything the routes use; one per running station."""

    settings: Settings
    database: Database
    store: EventStore
    station: Station
    hub: Hub
    clock: Clock
    advisor: LiveAdvisor  # follows the station while the app runs (see create_app)
    #: Cameras and drones bound to tables at run time (the set-up page); made when not given.
    bindings: Bindings = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.bindings is None:
            data = self.settings.data_dir
            self.bindings = Bindings(self.station, data, archive_dir(data))

    def __repr__(self) -> str:
        return f"<Services {self.database!r}>"


def build_services(settings: Settings, clock: Clock | None = None,
                   catalogues: Mapping[str, dict[str, Any]] | None = None) -> Services:
    """Open the database and put the station together (tables resumed lazily);
    ``catalogues``: a copy's catalogue per game, for every game started here."""
    clock = clock or SystemClock()
    database = open_database(settings.database_url)
    spool = (Spool(settings.data_dir / "hub-spool.sqlite3")
             if database.dialect == "postgresql" else None)  # the hub may go away
    store = EventStore(database, clock, spool)
    hub = Hub()
    station = Station(store, hub, catalogues, snapshot_interval=SNAPSHOT_INTERVAL)
    advisor = LiveAdvisor(station, settings.advice,
                          lambda table_id, game_seq: hints_refusal(database, table_id, game_seq))
    return Services(settings, database, store, station, hub, clock, advisor)


# The dependencies below are ``async def`` because each does next to nothing and never
# blocks: FastAPI runs a plain ``def`` dependency in its thread pool, a hand-over to a
# worker thread and back for every one of them on every request (about a third of the
# event loop's time per request under load; benchmarks/station_ws.py ``--load``).
async def get_services(request: Request) -> Services:
    return request.app.state.services


async def get_ws_services(websocket: WebSocket) -> Services:
    return websocket.app.state.services


async def get_station(services: Annotated[Services, Depends(get_services)]) -> Station:
    return services.station


def get_session(services: Annotated[Services, Depends(get_services)]) -> Iterator[Session]:
    """A session for one request; a route that writes calls ``commit()`` before it answers,
    and whatever is not committed is rolled back."""
    with services.database.new_session() as session:
        yield session


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def organiser_author(request: Request, services: Services) -> str:
    """The author of a write by the organiser's token (401 without it); names come from
    a header."""
    token = services.settings.token
    if not token.accepts(bearer_token(request)):
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED, NEEDS_TOKEN if token.issued else NO_TOKEN_YET,
            headers={"WWW-Authenticate": "Bearer"})
    name = request.headers.get(AUTHOR_HEADER, "").strip()[:100]
    return f"organiser:{name}" if name else "organiser"


async def require_organiser(request: Request,
                            services: Annotated[Services, Depends(get_services)],
                            _declared: Annotated[HTTPAuthorizationCredentials | None,
                                                 Depends(ORGANISER_TOKEN)] = None) -> str:
    """The author of a write: the organiser's token is required; names come from a header."""
    return organiser_author(request, services)


async def organiser_reading(request: Request,
                            services: Annotated[Services, Depends(get_services)],
                            _declared: Annotated[HTTPAuthorizationCredentials | None,
                                                 Depends(ORGANISER_TOKEN)] = None) -> bool:
    """Whether a read comes from the organiser (who sees the whole record): true with the
    organiser's token, false with none; a wrong token is refused as for a write."""
    if bearer_token(request) is None:
        return False
    organiser_author(request, services)
    return True


ServicesDep = Annotated[Services, Depends(get_services)]
WsServicesDep = Annotated[Services, Depends(get_ws_services)]
StationDep = Annotated[Station, Depends(get_station)]
SessionDep = Annotated[Session, Depends(get_session)]
TokenDep = Annotated[str, Depends(require_organiser)]
OrganiserReadDep = Annotated[bool, Depends(organiser_reading)]
