"""WebSocket live updates: ``/ws/tables``, ``/ws/tables/{id}`` and ``/ws/tournaments/{id}``.

A table's socket first sends the current snapshot (so a page opened mid-game
shows the state at once), then every new snapshot as it is stored. A
tournament's socket sends ``{"type": "changed"}`` whenever its results may have
moved; the page then fetches the tournament again. The table list's socket (the front
page) sends ``{"type": "tables"}`` at once, then ``{"type": "tables"}`` when a table is
added and ``{"type": "table", "id", "seq"}`` when one moves; the page then fetches its
cards again.
"""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect

from station.api.deps import WsServicesDep
from station.api.origin import refuse_other_sites
from station.live.advisor import public_message
from station.live.hub import Hub
from station.live.station import UnknownTable
from station.store.clock import epoch_seconds

# Every socket: a page of another site is refused before it is accepted (origin.py).
router = APIRouter(tags=["live"], dependencies=[Depends(refuse_other_sites)])


async def _drain_incoming(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it goes away."""
    try:
        while True:
            await websocket.receive_text()
    except WebSocketDisconnect:
        return


SNAPSHOT = '{"type": "snapshot"'


def _state_of(message: str) -> str | None:
    """A snapshot message's text from its ``seq`` on (the state, without when it was
    stored); None for any other message."""
    return message[message.find('"seq"'):] if message.startswith(SNAPSHOT) else None


async def _forward(websocket: WebSocket, queue: asyncio.Queue[str], sent: str | None) -> None:
    """Send what arrives on ``queue``, but a snapshot of the state the socket was sent last
    (``sent``): a paced snapshot (station/live/pacing.py) of writes made before the socket
    opened is what its first message showed already."""
    while True:
        message = await queue.get()
        state = _state_of(message)
        if state is not None and state == sent:
            continue
        sent = state if state is not None else sent
        await websocket.send_text(message)


async def _stream(websocket: WebSocket, hub: Hub, queues: list[tuple[str, asyncio.Queue[str]]],
                  *first: str) -> None:
    """Send the ``first`` messages, then whatever arrives on the (already subscribed) queues."""
    try:
        sent = None
        for message in first:
            await websocket.send_text(message)
            sent = _state_of(message) or sent
        tasks = [asyncio.create_task(_drain_incoming(websocket)),
                 *(asyncio.create_task(_forward(websocket, queue, sent)) for _, queue in queues)]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:  # no waiting for them: the client is gone, return at once
                task.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        for channel, queue in queues:
            hub.unsubscribe(channel, queue)


@router.websocket("/ws/tables")
async def table_list_updates(websocket: WebSocket, services: WsServicesDep) -> None:
    """``{"type": "tables"}`` now, then each table added or moved (the front page's list)."""
    hub = services.hub
    queues = [("tables", hub.subscribe("tables"))]
    await websocket.accept()
    await _stream(websocket, hub, queues, json.dumps({"type": "tables"}))


@router.websocket("/ws/tables/{table_id}")
async def table_updates(websocket: WebSocket, table_id: str, services: WsServicesDep) -> None:
    """The table's snapshot now (and the latest advice on it), then each new one (subscribed
    first, so none is missed)."""
    station, hub = services.station, services.hub
    queues = [(f"table:{table_id}", hub.subscribe(f"table:{table_id}"))]
    try:
        snapshot = await asyncio.to_thread(station.snapshot, table_id)
    except UnknownTable as error:
        hub.unsubscribe(*queues[0])
        await websocket.close(code=4404, reason=str(error))
        return
    await websocket.accept()
    first = [json.dumps({"type": "snapshot", "stored_at": epoch_seconds(),
                         "seq": snapshot["seq"], "snapshot": snapshot})]
    await asyncio.to_thread(services.advisor.ensure, table_id)  # a station just restarted
    advice = public_message(services.advisor.message(table_id))
    if advice is not None:
        first.append(json.dumps(advice))
    await _stream(websocket, hub, queues, *first)


@router.websocket("/ws/tournaments/{tournament_id}")
async def tournament_updates(websocket: WebSocket, tournament_id: str,
                             services: WsServicesDep) -> None:
    """``{"type": "changed"}`` now and whenever the tournament or a table moves."""
    hub = services.hub
    channels = [f"tournament:{tournament_id}", "tables"]
    queues = [(channel, hub.subscribe(channel)) for channel in channels]
    await websocket.accept()
    await _stream(websocket, hub, queues, json.dumps({"type": "changed"}))
