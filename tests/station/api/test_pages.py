"""The server-rendered pages' pieces: the correction picker's options, found by words."""

from __future__ import annotations

import doctest
import html
import re

from fastapi.testclient import TestClient

import station.api.pages as pages_module
from rules import get_game
from station.api.pages import LEGAL_CHOICES
from station.games import describe_action
from tests.station.api.conftest import AUTH


def test_doctests() -> None:
    assert doctest.testmod(pages_module).failed == 0


def _options(client: TestClient, query: str = "", organiser: bool = True) -> list[str]:
    page = client.get("/tables/t1/legal-choices", params={"q": query},
                      headers=AUTH if organiser else {}).text
    return [html.unescape(text) for text in re.findall(r"<option[^>]*>([^<]*)</option>", page)]


def test_the_picker_finds_every_legal_action_among_hundreds_by_its_words(
        client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "Table 1", "id": "t1", "game": {
        "game": "small-warehouse", "players": ["Ana", "Ben"], "seed": 4}}).raise_for_status()
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=4)
    said = [describe_action(state, action, face_up=True) for action in state.legal_actions()]
    assert len(said) > LEGAL_CHOICES
    listed = _options(client)
    assert listed[0] == (f"{len(said)} legal actions: the first {LEGAL_CHOICES} below, "
                         "type words to narrow — choose one")
    assert listed[1:] == said[:LEGAL_CHOICES]
    for words in said[LEGAL_CHOICES::97]:  # beyond the first list, each found by its words
        assert words in _options(client, words)
    narrowed = _options(client, "C17 Row 6,")  # each word, any case, anywhere in the words
    expected = [line for line in said if "c17" in line and "row" in line and "6" in line]
    assert narrowed == [f"{len(expected)} of {len(said)} legal actions have “C17 Row 6,” — "
                        "choose one", *expected]
    assert _options(client, "no such piece") == [
        "no legal action has the words “no such piece”"]


def test_the_picker_names_each_speculation_card_a_player_could_lay(client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "Table 1", "id": "t1", "game": {
        "game": "pick-n-packers", "players": ["Ana", "Ben", "Cas"], "seed": 1}}).raise_for_status()
    listed = _options(client)[1:]
    assert len(listed) == len(set(listed)) == 10  # told apart: each names its card
    assert all("bet on shop card" in words for words in listed)
    # anyone else sees one face-down speculation, not which cards the speculator holds
    public = _options(client, organiser=False)[1:]
    assert len(public) == 1 and "shop card" not in public[0]


def test_a_players_phone_page_shows_the_final_scores_and_signs_with_the_code(
        client: TestClient) -> None:
    client.post("/api/tournaments", headers=AUTH, json={
        "name": "Cup", "players": ["Ana", "Ben"]}).raise_for_status()
    game = client.post("/api/tournaments/cup/games", headers=AUTH,
                       json={"round": 1, "players": ["Ana", "Ben"]}).json()["id"]
    path = f"/tournaments/cup/games/{game}/sign"
    waiting = client.get(path, params={"player": "Ana", "code": "K7QD-M2XA"}).text
    assert "no final result yet" in waiting and waiting.count(" disabled>") == 2
    client.put(f"/api/tournaments/cup/games/{game}/result", headers=AUTH,
               json={"scores": {"Ana": 30, "Ben": 20}}).raise_for_status()
    page = client.get(path, params={"player": "Ana", "code": "K7QD-M2XA"}).text
    assert re.search(r"<th scope=\"row\">Ana</th><td>30</td><td>wins</td>", page)
    assert 'value="K7QD-M2XA"' in page and 'data-player="Ana"' in page
    assert ">Agree</button>" in page and ">Disagree</button>" in page and " disabled>" not in page
    assert 'src="/static/sign.js"' in page and "Bearer" not in page
    chooser = client.get(path, params={"player": "Zed"}).text  # not a player: choose a name
    assert 'href="?player=Ben"' in chooser and "sign-form" not in chooser
    assert client.get(f"/tournaments/cup/games/{game + 1}/sign").status_code == 404


def test_the_board_entry_is_every_legal_action_as_taps_for_the_organiser(
        client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "Table 1", "id": "t1", "game": {
        "game": "removal", "players": ["Ana", "Ben"], "seed": 4}}).raise_for_status()
    state = get_game("removal").new_game(["Ana", "Ben"], seed=4)
    assert client.get("/tables/t1/board-entry").status_code == 401  # a hand is among them
    entry = client.get("/tables/t1/board-entry", headers=AUTH).json()
    assert entry["player"] == "Ana" and entry["untapped"] == 0
    assert [move["action"] for move in entry["moves"]] == state.legal_actions()
    assert entry["steps"] == ["piece", "place", "turn", "then"]
    drive = [entry["choices"][move["keys"][0]] for move in entry["moves"]
             if move["action"]["type"] == "drive"]
    assert [choice["words"] for choice in drive] in ([], ["drive the truck away and score"])


def test_the_reveal_picker_draws_each_component_for_the_organiser(client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "Table 1", "id": "t1", "game": {
        "game": "removal", "players": ["Ana", "Ben"], "deal": "table"}}).raise_for_status()
    assert client.get("/tables/t1/reveal-choices").status_code == 401
    outcomes = client.get("/tables/t1/reveal-choices", headers=AUTH).json()["outcomes"]
    state = get_game("removal").new_game(["Ana", "Ben"], deal="table")
    assert [o["action"] for o in outcomes] == [o.action for o in state.chance_outcomes()]
    sofa = next(o for o in outcomes if o["label"].endswith("(sofa)"))
    assert sofa["words"].startswith("a sofa of ") and sofa["picture"]
