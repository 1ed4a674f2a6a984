"""A copy taught by camera under the real-camera model, filled in, and played dealt by hand.

The teaching sessions are made on the fly (``devkit.station.rehearsal``, fixed
seeds): a person lays the whole default Small Warehouse deck, then a set of
Removal items, one at a time on a mat photographed by the independent real-camera
model (``devkit.vision.realistic``: casts, textures and clutter, shadows, vignetting, a
lamp's glare, hands, a wide lens), doing what packref says — laying a piece
again when told it cannot be read. The frames are written to a folder and
learnt by ``packref catalogue learn --replay``, as a recorded session would be.
Every card and item must be right; nothing read with ``?`` on or beside it may
be recorded. The Removal file is then filled in through the dashboard's
catalogue API (what the camera cannot see); both copies start a table dealt by
hand through ``POST /api/tables`` and are played to the end from the picker
and the players' declared moves; and ``packref simulate --catalogue`` plays
each learnt file.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from devkit.station.rehearsal import Rehearsal, laid_card, laid_piece, teach
from devkit.vision.realistic import ALL_CONDITIONS
from rules import get_game
from rules.catalogue import default_catalogue
from station.catalogue.pieces import canonical_card
from station.cli import main
from station.config import Settings
from tests.conftest import CliResult
from tests.station.api.conftest import AUTH
from tests.station.e2e.dealt_table import DealtTable
from vision.layout import MatSpec

pytestmark = pytest.mark.timeout(3600)  # two whole teaching sessions, photographed and read

DECK_MAT = MatSpec(2, 8, 10, "colour")
ITEMS_MAT = MatSpec(5, 6, 8, "tags")
ITEMS = ["I01", "I04", "I09", "I18", "I44", "I61", "I70", "I73"]  # shapes of 1 to 6 squares
ITEM_TAGS = [57 + 3 * index for index in range(len(ITEMS))]
SEED = 2026


def _shapes() -> dict[str, list[str]]:
    return {item["id"]: item["shape"] for item in default_catalogue("removal")["items"]}


@pytest.fixture(scope="module")
def taught(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Both sessions on disk (frames, ``MATS.json``) with what the teacher laid and did."""
    folder = tmp_path_factory.mktemp("taught")
    (folder / "mats.json").write_text(json.dumps({"mats": [
        {"id": spec.id, "rows": spec.rows, "cols": spec.cols, "kind": spec.kind}
        for spec in (DECK_MAT, ITEMS_MAT)]}))
    rng = np.random.default_rng(SEED)
    cards = default_catalogue("small-warehouse")["cards"]
    laid = [laid_card(card["squares"], DECK_MAT, rng) for card in cards]
    laid[7].hand_held_still = True  # a hand rests over part of the eighth card
    deck = teach(Rehearsal(DECK_MAT, SEED, conditions=ALL_CONDITIONS), laid,
                 "small-warehouse", folder / "deck")
    shapes = _shapes()
    pieces = [laid_piece(tag, shapes[item], ITEMS_MAT, rng)
              for tag, item in zip(ITEM_TAGS, ITEMS, strict=True)]
    pieces[2].hand_held_still = True
    pieces.append(laid_piece(ITEM_TAGS[4], shapes[ITEMS[4]], ITEMS_MAT, rng))  # laid twice
    items = teach(Rehearsal(ITEMS_MAT, SEED + 1, conditions=ALL_CONDITIONS), pieces, "removal",
                  folder / "items")
    return {"folder": folder, "deck": deck, "items": items}


@pytest.fixture(scope="module")
def learnt(taught: dict[str, Any]) -> dict[str, tuple[CliResult, Path]]:
    """``packref catalogue learn --replay`` of each session: its output and the file."""
    done = {}
    for game, frames in (("small-warehouse", "deck"), ("removal", "items")):
        out = taught["folder"] / f"{frames}.json"
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = main(["catalogue", "learn", game, "--replay", str(taught["folder"] / frames),
                           "--mats", str(taught["folder"] / "mats.json"), "--out", str(out)])
        done[game] = (CliResult(status, stdout.getvalue(), stderr.getvalue()), out)
    return done


def _not_recorded(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "not recorded:" in line]


def test_a_whole_deck_is_learnt_right_from_a_replay_under_the_real_camera_model(
        taught: dict[str, Any], learnt: dict[str, tuple[CliResult, Path]]) -> None:
    result, out = learnt["small-warehouse"]
    assert result.status == 0, result.stderr
    cards = default_catalogue("small-warehouse")["cards"]
    assert json.loads(out.read_text()) == {"game": "small-warehouse", "cards": [
        {"id": card["id"], "squares": canonical_card(card["squares"])} for card in cards]}
    summary = json.loads(result.stdout)
    assert summary["recorded"] == 20 and summary["duplicates"] == 0
    # what could not be read was refused and the person told to lay it again, as the
    # teacher heard it while laying (the replay reads the very same frames)
    refused = _not_recorded(result.stderr)
    assert refused and all("lay it again" in line for line in refused)
    assert summary["not_recorded"] == len(refused) == taught["deck"].learner.counts["again"]
    held = taught["deck"].teacher.log[7]
    assert held.outcomes[0] != "recorded"  # not from under the resting hand


def test_a_set_of_removal_items_is_learnt_right_from_a_replay(
        learnt: dict[str, tuple[CliResult, Path]]) -> None:
    result, out = learnt["removal"]
    assert result.status == 0, result.stderr
    shapes = _shapes()
    assert json.loads(out.read_text()) == {"game": "removal", "items": [
        {"tag": tag, "shape": shapes[item]} for tag, item in zip(ITEM_TAGS, ITEMS, strict=True)]}
    summary = json.loads(result.stdout)
    assert summary["recorded"] == len(ITEMS) and summary["duplicates"] == 1
    assert f"tag {ITEM_TAGS[4]} is already recorded" in result.stderr
    assert summary["not_recorded"] == len(_not_recorded(result.stderr))


# -- filled in, then played ---------------------------------------------------------------
ANSWERS = {0: {"name": "safe", "heavy": "yes", "symbol": "hat"},
           1: {"name": "aquarium", "delicate": "2 -2", "symbol": "doll"},
           2: {"name": "box", "value": "2", "symbol": "pipe"},
           5: {"name": "piano", "heavy": "yes", "antique": "yes", "symbol": "paw"}}


def _fill_in(client: TestClient, learnt: dict[str, Any]) -> dict[str, Any]:
    """The dashboard's walk: the learnt file uploaded, the camera's blind spots answered; the
    copy as it stands then."""
    answer = client.put("/api/catalogues/removal", headers=AUTH, json=learnt)
    assert answer.status_code == 200, answer.text
    refused = client.post("/api/catalogues/removal/answers", headers=AUTH, json={
        "list": "items", "index": 1, "field": "delicate", "answer": "2 0"})
    assert refused.json() == {"detail": "$.items[1].delicate[1]: must be -9..-1"}
    for index, fields in ANSWERS.items():
        for field, text in fields.items():
            answer = client.post("/api/catalogues/removal/answers", headers=AUTH, json={
                "list": "items", "index": index, "field": field, "answer": text})
            assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["playable"] is True, view.get("reason")
    return {"game": "removal", "items": [piece["entry"] for piece in view["pieces"]]}


def play_to_the_end(table: DealtTable, rng: random.Random, limit: int = 3000) -> None:
    """The players' moves, declared at the table, and each face-down component entered from
    the picker when it is turned up, until the game is over."""
    for _ in range(limit):
        if table.game()["over"]:
            return
        waiting = table.client.get(f"/api/tables/{table.id}/outcomes?limit=5000",
                                   headers=AUTH).json()
        if waiting["waiting"]:
            chosen = rng.choice(table.outcomes())
            table.pick(lambda action, chosen=chosen: action == chosen)
        else:
            table.declare(rng.choice(table.legal_actions()))
    raise AssertionError(f"not over after {limit} steps")


def _engine_scores(game: str, players: list[str], catalogue: dict[str, Any],
                   actions: list[dict[str, Any]]) -> list[int]:
    """The engine's own scores for the same moves with the same catalogue."""
    state = get_game(game).new_game(players, deal="table", catalogue=catalogue)
    for action in actions:
        state.apply(dict(action))
    assert state.is_over()
    return [score.total for score in state.scores()]


@pytest.mark.parametrize("game", ["small-warehouse", "removal"])
def test_a_learnt_copy_plays_a_live_game_dealt_by_hand_and_simulate(
        cli: Any, client: TestClient, settings: Settings,
        learnt: dict[str, tuple[CliResult, Path]], tmp_path: Path, game: str) -> None:
    learnt_file = tmp_path / "copy.json"
    shutil.copy(learnt[game][1], learnt_file)
    play_a_copy(cli, client, settings, game, learnt_file)


def play_a_copy(cli: Any, client: TestClient, settings: Settings, game: str,
                learnt_file: Path) -> None:
    """The learnt file filled in (Removal), played live dealt by hand, and simulated."""
    copy = json.loads(learnt_file.read_text())
    if game == "removal":
        copy = _fill_in(client, copy)
        assert copy["items"][5]["heavy"] is True and copy["items"][1]["delicate"] == [2, -2]
        learnt_file.write_text(json.dumps(copy))
    players = ["Ana", "Ben"]
    table = DealtTable(client, game, players, catalogue=copy)
    stored = client.get(f"/api/tables/{table.id}/events", headers=AUTH).json()[0]  # the record
    assert stored["kind"] == "game" and "catalogue" in stored
    play_to_the_end(table, random.Random(7))
    state = table.game()
    assert state["over"] and table.flags() == [] and table.refused == []
    assert [score["total"] for score in state["scores"]] == _engine_scores(
        game, players, stored["catalogue"], table.applied)
    table.assert_public()
    table.assert_replayed(settings)
    result = cli("simulate", game, "--players", "2", "--seed", "5", "--catalogue", learnt_file)
    assert result.status == 0, result.stderr
    simulated = json.loads(result.stdout)
    assert simulated["actions"] > 0 and simulated["winners"]
