"""Each game's record: the four games' wiring, the picker's words, a fifth game as one module."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import station.games
from rules import get_game
from station.api import build_services, create_app
from station.config import Settings
from station.games import (
    GameRecord,
    forget_records,
    game_record,
    game_records,
    labelled_outcomes,
)
from station.live.translators import TableTranslator, translated_games
from station.store import FixedClock
from tests.station.conftest import TOKEN

AUTH = {"Authorization": f"Bearer {TOKEN}"}
GAMES = ["small-warehouse", "moving-day", "removal", "pick-n-packers"]


def test_each_game_has_one_record_with_all_its_wiring() -> None:
    assert [record.name for record in game_records()] == GAMES
    for record in game_records():
        assert isinstance(record, GameRecord)
        assert get_game(record.name).name == record.name  # the engine the record wires
        assert None not in (record.referee, record.scorer, record.presenter,
                            record.reveal_label, record.camera, record.mats), record.name
        assert type(TableTranslator(record.name).inner) is record.referee
    assert [game_record(name).title for name in GAMES] == [
        "Small Warehouse", "Moving Day", "Removal", "Pick 'n Packers"]
    assert set(GAMES) <= set(translated_games())


def _labels(game: str, players: int, moves: int = 0) -> list[str]:
    state = get_game(game).new_game(["Ana", "Ben", "Cas"][:players], deal="table")
    for _ in range(moves):
        state.apply(state.chance_outcomes()[0].action)
    return [outcome["label"] for outcome in labelled_outcomes(state, state.chance_outcomes())]


def test_the_picker_shows_each_reveal_in_a_persons_words() -> None:
    assert _labels("small-warehouse", 2)[0] == "Ana's starting card: c01"
    assert "supply: c07" in _labels("small-warehouse", 2, 2)
    moving = _labels("moving-day", 2)
    assert moving[0].startswith("group 1 box: box-") and any(
        label.startswith("group 1 helper: ") for label in moving)
    removal = _labels("removal", 2)
    assert removal[0] == "house row 1, column 2: I01 (piano)"  # the name from the catalogue
    assert any(label.startswith("shop row 1, column 1: shop-") for label in _labels(
        "pick-n-packers", 3))


def test_a_game_without_a_record_gets_the_generic_picker_words(draw_game: str) -> None:
    state = get_game(draw_game).new_game(["Ana", "Ben"], deal="table")
    assert labelled_outcomes(state, state.chance_outcomes())[0] == {
        "action": {"type": "reveal", "card": "c1"}, "count": 2}  # no label: the page's own


# -- a fifth game is one module ----------------------------------------------------------------
TOY_RECORD = '''
"""The toy draw game's wiring: nothing else in the station names it."""

from station.games import GameRecord


class Referee:
    def translate(self, state, observation):
        return [{"type": "take"}] if observation.get("kind") == "grab" else []


def view(state):
    return {"boards": [], "lines": [f"face up: {state.data['face_up'] or '?'}"]}


def label(state, action):
    return f"the next card: {action['card']}"


def describe(state, action):
    return f"took {state.data['face_up']}"


def score(node):
    cards = [card.choice(["c1", "c2", "c3"]) for card in node["cards"].items()]
    return {"total": sum(int(card[1:]) for card in cards)}


RECORD = GameRecord(name="test-draw", title="Toy Draw", order=90, referee=Referee,
                    scorer=score, presenter=view, reveal_label=label, describe=describe,
                    legend="", camera=None, mats=None, catalogue=None,
                    tie_breakers=("wins", "points"))
'''


@pytest.fixture
def toy_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, draw_game: str) -> Iterator[str]:
    """The toy draw game's record as a module of :mod:`station.games`, for this test only."""
    folder = tmp_path / "more_games"
    folder.mkdir()
    (folder / "toy_draw.py").write_text(textwrap.dedent(TOY_RECORD))
    monkeypatch.setattr(station.games, "__path__", [*station.games.__path__, str(folder)])
    forget_records()
    yield draw_game
    sys.modules.pop("station.games.toy_draw", None)
    monkeypatch.undo()
    forget_records()


def test_a_fifth_game_is_one_new_module(toy_module: str, settings: Settings, cli,
                                        write_json) -> None:
    assert [record.name for record in game_records()] == [*GAMES, toy_module]
    built = build_services(settings, FixedClock())
    try:
        with TestClient(create_app(built)) as client:
            answer = client.post("/api/tables", headers=AUTH, json={
                "name": "Table 1", "id": "t1",
                "game": {"game": toy_module, "players": ["Ana", "Ben"], "deal": "table"}})
            assert answer.status_code == 201, answer.text
            outcomes = client.get("/api/tables/t1/outcomes", headers=AUTH).json()["outcomes"]
            assert [o["label"] for o in outcomes] == [f"the next card: c{n}" for n in (1, 2, 3)]
            client.post("/api/tables/t1/reveals", headers=AUTH,
                        json={"action": {"type": "reveal", "card": "c3"}})
            game = client.get("/api/tables/t1").json()["game"]
            assert game["view"] == {"boards": [], "lines": ["face up: c3"]}  # its presenter
            grab = client.post("/api/tables/t1/observations", headers=AUTH,
                               json={"observation": {"kind": "grab"}})  # its referee
            assert [e["kind"] for e in grab.json()["events"]] == ["observation", "action"]
            assert client.get("/api/tables/t1").json()["game"]["scores"][0]["total"] == 3
    finally:
        built.database.close()
    scored = cli("score", toy_module, write_json({"cards": ["c1", "c3"]}))  # its scorer
    assert (scored.status, scored.stdout.strip()) == (0, '{"total": 4}')
    refused = cli("score", toy_module, write_json({"cards": ["c9"]}))
    assert refused.status == 2 and refused.stderr.startswith("$.cards[0]")
