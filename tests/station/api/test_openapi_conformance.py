"""The API keeps the word of its OpenAPI description: Schemathesis, from ``/openapi.json``,
against a running station (uvicorn on loopback) that holds tables — one dealt by hand — and a
tournament. Fixed seed, bounded examples: the same requests every run.

By hand: ``PYTHONPATH=. python -m pytest -q tests/station/api/test_openapi_conformance.py``;
the ``st run`` command it runs is printed with ``-s``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.station.api.conftest import AUTH, LiveStation
from tests.station.api.test_catalogue import LEARNT
from tests.station.conftest import TOKEN

SEED = 18
MAX_EXAMPLES = 30  # per operation and phase: a minute or so here
CHECKS = ("not_a_server_error", "status_code_conformance", "content_type_conformance",
          "response_schema_conformance")
PLAYERS = ["Ana", "Ben", "Cas", "Dee"]


def furnish(client: httpx.Client) -> dict[str, list[str | int]]:
    """What a station holds on the day: a seeded table, one dealt by hand, one playing a
    tournament game, a tournament with players, a live game and one entered by hand, a copy's
    catalogue and an open flag. Returns the ids it holds, by the path parameter naming them."""
    def post(path: str, body: dict) -> dict:
        answer = client.post(path, json=body, headers=AUTH)
        assert answer.status_code == 201, answer.text
        return answer.json()

    post("/api/tables", {"name": "Table 1", "id": "t1", "game": {
        "game": "small-warehouse", "players": PLAYERS[:2], "seed": 3}})
    post("/api/tables", {"name": "Table 2", "id": "t2", "game": {
        "game": "removal", "players": PLAYERS[:3], "deal": "table"}})
    post("/api/tables", {"name": "Table 3", "id": "t3"})
    post("/api/tournaments", {"name": "Cup", "id": "cup", "players": PLAYERS,
                              "game": "small-warehouse"})
    live = post("/api/tournaments/cup/games", {"round": 1, "players": PLAYERS[:2],
                                               "table": "t3"})
    post(f"/api/tournaments/cup/games/{live['id']}/start", {"game": "small-warehouse"})
    by_hand = post("/api/tournaments/cup/games", {"round": 1, "players": PLAYERS[2:]})
    answer = client.put(f"/api/tournaments/cup/games/{by_hand['id']}/result", headers=AUTH,
                        json={"scores": {"Cas": 12, "Dee": 9}})
    assert answer.status_code == 200, answer.text
    answer = client.put("/api/catalogues/pick-n-packers", headers=AUTH, json=LEARNT)
    assert answer.status_code == 200, answer.text
    refused = client.post("/api/tables/t2/reveals", headers=AUTH,
                          json={"action": {"type": "no-such-reveal"}})
    assert refused.status_code == 422, refused.text  # answered, not flagged
    early = {"kind": "truck", "found": True, "tiles": [  # a truck loaded before the deal is read
        {"tile": "I07", "row": 0, "col": 0, "rotation": 0, "flipped": False}]}
    post("/api/tables/t2/observations", {"observation": early, "source": "camera"})
    flags = [flag["seq"] for flag in client.get("/api/tables/t2").json()["flags"]]
    entry = post("/api/tables/t1/observations", {"observation": {"kind": "person", "note": 1}})
    return {"table_id": ["t1", "t2", "t3"], "tournament_id": ["cup"],
            "match_id": [live["id"], by_hand["id"]], "flag": flags, "name": PLAYERS,
            "entry": [entry["events"][0]["seq"]],
            "game": ["small-warehouse", "removal", "moving-day", "pick-n-packers"]}


# Body fields that name what the station holds take its values (often) too.
BODY_BINDINGS = {"body.players[*]": "name", "body.player": "name", "body.table": "table_id",
                 "body.game": "game", "body.game.game": "game", "body.game.players[*]": "name"}


def schemathesis_config(held: dict[str, list[str | int]], path: Path) -> Path:
    """Path parameters take the station's own ids most of the time (else anything the
    description allows), so the requests reach past "no such table" too."""
    lines = []
    for name, values in held.items():
        lines += [f"[dictionaries.{name}]", f"values = {json.dumps(values)}", ""]
    lines.append("[parameters]")
    bindings = {f"path.{name}": name for name in held} | BODY_BINDINGS
    lines += [f'"{key}" = {{ dictionary = "{name}", probability = 0.8 }}'
              for key, name in bindings.items()]
    path.write_text("\n".join(lines) + "\n")
    return path
@pytest.fixture
def station(live_station: LiveStation) -> LiveStation:
    with httpx.Client(base_url=live_station.url) as client:
        live_station.held = furnish(client)
    return live_station


def schemathesis_command(url: str, config: Path, report: Path) -> list[str]:
    """``st run`` with the fixed seed and bounds, every phase (examples, coverage, fuzzing,
    stateful: links between create and read are inferred from the description)."""
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or "st"
    return [st, "--config-file", str(config), "run", f"{url}/openapi.json",
            "--checks", ",".join(CHECKS),
            "--seed", str(SEED), "--max-examples", str(MAX_EXAMPLES), "--workers", "1",
            "--header", f"Authorization: Bearer {TOKEN}", "--no-shrink",
            "--suppress-health-check", "all", "--report", "ndjson",
            "--report-ndjson-path", str(report), "--output-truncate", "true"]


@pytest.mark.timeout(600)
def test_schemathesis_finds_nothing(station: LiveStation, tmp_path: Path) -> None:
    config = schemathesis_config(station.held, tmp_path / "schemathesis.toml")
    command = schemathesis_command(station.url, config, tmp_path / "events.ndjson")
    before = station.app.requests
    run = subprocess.run(command, capture_output=True, text=True, timeout=540, check=False,
                         cwd=tmp_path)  # its cache stays out of the checkout
    print(" ".join(command), run.stdout[-4000:], sep="\n")
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-3000:]
    counted = re.search(r"(\d+) generated, (\d+) passed", run.stdout)
    assert counted and counted[1] == counted[2], run.stdout[-3000:]
    sent = station.app.requests - before
    print(f"requests: {sent}")
    assert sent > 500  # the run did reach the station


def test_the_description_declares_the_error_shape_not_fastapis(station: LiveStation) -> None:
    description = httpx.get(f"{station.url}/openapi.json").json()
    assert "HTTPValidationError" not in json.dumps(description)
    read = description["paths"]["/api/tables/{table_id}"]["get"]["responses"]
    assert read["404"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorOut"}
    answer = httpx.get(f"{station.url}/api/tournaments/cup/games/96889974515226865215471616")
    assert answer.status_code in (404, 405)
    too_large = httpx.put(
        f"{station.url}/api/tournaments/cup/games/96889974515226865215471616/result",
        headers=AUTH, json={"scores": {"Ana": 1}})
    assert too_large.status_code == 422
    assert too_large.json()["errors"][0]["place"] == "path.match_id"
