"""A client generated from ``/openapi.json`` (openapi-python-client, the ordinary way to
integrate with a FastAPI service) plays a short game against a running station, typed
answers and refusals alike."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import httpx
import pytest

from tests.station.api.conftest import LiveStation
from tests.station.conftest import TOKEN

PACKAGE = "packref_client"


def _generate(url: str, folder: Path) -> None:
    spec = folder / "openapi.json"
    spec.write_text(httpx.get(f"{url}/openapi.json").text)
    config = folder / "generator.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run over the generated code
    tool = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    assert tool, "openapi-python-client is a dev dependency"
    run = subprocess.run([tool, "generate", "--path", str(spec), "--meta", "none",
                          "--config", str(config), "--output-path", str(folder / PACKAGE)],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warning" not in run.stdout, run.stdout  # every route and model was understood


@pytest.fixture
def generated(live_station: LiveStation, tmp_path: Path) -> Iterator[ModuleType]:
    """The generated package, imported (and forgotten afterwards)."""
    _generate(live_station.url, tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def _part(package: ModuleType, name: str) -> ModuleType:
    return importlib.import_module(f"{package.__name__}.{name}")


def test_a_generated_client_plays_a_short_game(generated: ModuleType, live_station: LiveStation,
                                               toy_game: str) -> None:
    models, tables = _part(generated, "models"), _part(generated, "api.tables")
    for name in ("create_table", "post_observation", "post_correction", "read_table",
                 "read_events"):
        importlib.import_module(f"{tables.__name__}.{name}")
    client = generated.AuthenticatedClient(base_url=live_station.url, token=TOKEN)
    created = tables.create_table.sync(client=client, body=models.TableCreate(
        name="Table 1", id="t1", game=models.GameStart(game=toy_game, players=["Ana", "Ben"],
                                                       seed=0)))
    assert isinstance(created, models.Snapshot) and created.game.players == ["Ana", "Ben"]

    def declare(n: int) -> object:
        return tables.post_observation.sync(
            table_id="t1", client=client, body=models.ObservationIn(
                observation=models.ObservationInObservation.from_dict(
                    {"kind": "declared", "action": {"type": "add", "n": n}})))

    assert [event.kind for event in declare(2).events] == ["observation", "action"]
    refused = declare(3)  # the toy game allows 1 or 2: the caller hears why, nothing flagged
    assert isinstance(refused, models.ErrorOut) and "you may add 1 or 2" in refused.detail
    snapshot = tables.read_table.sync(table_id="t1", client=client)
    assert isinstance(snapshot, models.Snapshot)
    assert [score.total for score in snapshot.game.scores] == [2, 0]
    assert snapshot.flags == []
    corrected = tables.post_correction.sync(table_id="t1", client=client, body=models.CorrectionIn(
        action=models.CorrectionInAction.from_dict({"type": "add", "n": 1})))
    assert corrected.events[0].kind == "correction"
    events = tables.read_events.sync(table_id="t1", client=client)
    assert [event.seq for event in events] == list(range(1, len(events) + 1))


def test_refusals_arrive_as_the_documented_error(generated: ModuleType,
                                                 live_station: LiveStation) -> None:
    models, tables = _part(generated, "models"), _part(generated, "api.tables")
    importlib.import_module(f"{tables.__name__}.read_table")
    importlib.import_module(f"{tables.__name__}.create_table")
    anonymous = generated.Client(base_url=live_station.url, raise_on_unexpected_status=True)
    missing = tables.read_table.sync_detailed(table_id="nope", client=anonymous)
    assert missing.status_code == 404 and isinstance(missing.parsed, models.ErrorOut)
    assert missing.parsed.detail == "there is no table 'nope'"
    wrong = generated.AuthenticatedClient(base_url=live_station.url, token="wrong",
                                          raise_on_unexpected_status=True)
    refused = tables.create_table.sync_detailed(client=wrong,
                                                body=models.TableCreate(name="Table 2"))
    assert refused.status_code == 401 and "organiser's token" in refused.parsed.detail
    bad = generated.AuthenticatedClient(base_url=live_station.url, token=TOKEN,
                                        raise_on_unexpected_status=True)
    invalid = tables.create_table.sync_detailed(client=bad, body=models.TableCreate(
        name="Table 2", game=models.GameStart(game="removal", players=[])))
    assert invalid.status_code == 422
    assert [problem.place for problem in invalid.parsed.errors] == ["$.game.players"]
