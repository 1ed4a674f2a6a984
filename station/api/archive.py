"""``GET /api/tables/ID/archive``: a table's game archive as a ZIP (events, photos, scores)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fastapi import APIRouter, Response

from station.api.deps import ServicesDep, TokenDep
from station.api.models import TableId
from station.api.responses import errors_beside
from station.appliance.archive import table_archive as build
from station.appliance.setup import archive_dir

router = APIRouter(tags=["tables"])


@router.get("/api/tables/{table_id}/archive", response_class=Response,
            responses={200: {"content": {"application/zip": {}}}, **errors_beside(401, 404, 422)})
async def table_archive(table_id: TableId, services: ServicesDep, _author: TokenDep,
                        ) -> Response:
    """Every game of the table: its events, the camera frame behind every ruling and flag,
    and the final scores (see ``station.appliance.archive``). The whole record, face-down
    cards too: the organiser's token is needed."""
    data = await asyncio.to_thread(build, services.station, table_id,
                                   archive_dir(Path(services.settings.data_dir)))
    return Response(data, media_type="application/zip", headers={
        "Content-Disposition": f'attachment; filename="{table_id}-archive.zip"'})
