"""Every door the public can open, tried at several points of real games: nothing the table
cannot see comes out of any of them (docs/station.md, "What is public").

The doors are the app's own routes (every GET, pages included, and every WebSocket), not a
list kept here; the secrets are the engine's (:mod:`tests.station.secrets`). Each of the
four games is played hand-dealt and seeded, at random, to its end, with a tournament
around the table, and at each point a refused move with a hidden part is declared too.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient

from rules import State, game_names, get_game
from rules.playout import random_reveal
from station.api import Services, create_app
from station.games import game_record
from station.live.advisor import position_of
from tests.station.api.conftest import AUTH
from tests.station.secrets import leaks, secrets_of

GAMES = [name for name in game_names() if game_record(name) is not None]
SEED = 1_234_567_891  # distinctive: found in a page, it can only be the seed
TABLE, CUP = "t1", "cup"
CHECKPOINTS = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377}
MAX_STEPS = 2000


def players_of(game: str) -> list[str]:
    """Four players where the game takes them (Pick 'n Packers then has two speculators, who
    lay their cards face down one after the other)."""
    return ["Ana", "Ben", "Cas", "Dia"][:min(4, get_game(game).max_players)]


def start(client: TestClient, game: str, deal: str, table: str = TABLE,
          catalogue: dict[str, Any] | None = None) -> None:
    body: dict[str, Any] = {"game": game, "players": players_of(game), "deal": deal}
    if deal == "seed":
        body["seed"] = SEED
    if catalogue is not None:
        body["catalogue"] = catalogue
    answer = client.post("/api/tables", headers=AUTH,
                         json={"name": table, "id": table, "game": body})
    assert answer.status_code == 201, answer.text


def add_tournament(client: TestClient, game: str) -> int:
    """A tournament of the table's players, one of its games at the table."""
    players = players_of(game)
    assert client.post("/api/tournaments", headers=AUTH, json={
        "name": "Cup", "players": players}).status_code == 201
    match = client.post(f"/api/tournaments/{CUP}/games", headers=AUTH, json={
        "round": 1, "players": players, "table": TABLE})
    assert match.status_code == 201, match.text
    return int(match.json()["id"])


def state_of(services: Services, table: str = TABLE) -> State:
    current = services.station.table(table).current
    assert current is not None
    return current.state


def step(services: Services, rng: random.Random, table: str = TABLE,
         allowed: Any = None) -> bool:
    """One move at random, as the organiser enters it (a reveal when the table waits for
    one); False when the game is over. ``allowed``: which moves may be picked."""
    state = state_of(services, table)
    if state.is_over():
        return False
    if state.is_chance():
        reveal = random_reveal(state, rng)
        assert reveal is not None
        services.station.reveal(table, reveal, "organiser", "person")
        return True
    actions = [a for a in state.legal_actions() if allowed is None or allowed(state, a)]
    services.station.correct(table, rng.choice(actions), "organiser")
    return True


def declare_a_hidden_refusal(client: TestClient, state: State) -> None:
    """Declare again the last move with a hidden part (a speculation card, a hand card): the
    engine refuses it, and its reason names the card."""
    hidden = [a for a in state.log if state.public_action(a) != a]
    if hidden and not state.is_over():
        client.post(f"/api/tables/{TABLE}/observations", headers=AUTH, json={
            "observation": {"kind": "declared", "action": hidden[-1]}, "source": "button"})


def settle_advice(services: Services, table: str = TABLE) -> None:
    """Wait until the advisor has answered for the table's position (if it studies it)."""
    live = services.station.table(table)
    wanted = position_of(live)
    deadline = time.monotonic() + 60
    while wanted is not None and time.monotonic() < deadline:
        message = services.advisor.message(table)
        if message is not None and message.get("position") == wanted.last \
                and message.get("actions") == wanted.actions:
            return
        services.advisor.ensure(table)
        time.sleep(0.02)
    assert wanted is None, f"no advice for {wanted} within a minute"


def door_urls(client: TestClient, ids: dict[str, str]) -> tuple[list[str], list[str]]:
    """Every GET route and every WebSocket of the app, with its path filled from ``ids``."""
    pages, sockets = [], []
    for path, route in _routes(client.app.routes, ""):
        if isinstance(route, APIRoute) and "GET" in route.methods:
            pages.append(_filled(path, ids))
        elif isinstance(route, APIWebSocketRoute):
            sockets.append(_filled(path, ids))
    assert len(pages) > 20 and len(sockets) >= 3, "the door test lost the app's routes"
    return pages, sockets


def _routes(routes: list[Any], prefix: str) -> Iterator[tuple[str, Any]]:
    """Every route with its full path, through included routers (FastAPI keeps them apart)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _routes(included.routes, prefix + route.include_context.prefix)
        else:
            yield prefix + getattr(route, "path", ""), route


def _filled(path: str, ids: dict[str, str]) -> str:
    missing = [name for name in re.findall(r"{(\w+)}", path) if name not in ids]
    assert not missing, f"the door test cannot open {path}: give it a {missing[0]}"
    return path.format(**ids)


def read_doors(client: TestClient, services: Services, ids: dict[str, str]
               ) -> Iterator[tuple[str, Any, str]]:
    """What every door serves without the token: (door, JSON or None, text)."""
    pages, sockets = door_urls(client, ids)
    for url in pages:
        answer = client.get(url)
        is_json = answer.headers.get("content-type", "").startswith("application/json")
        yield url, answer.json() if is_json else None, answer.text
    for url in sockets:
        with client.websocket_connect(url) as socket:
            messages = [socket.receive_text()]
            if url.endswith(f"/{TABLE}") and services.advisor.message(TABLE) is not None:
                messages.append(socket.receive_text())
        for text in messages:
            yield url, json.loads(text), text


def refused_moves(services: Services) -> list[tuple[dict[str, Any], str]]:
    return [(event.payload.get("action"), str(event.payload.get("reason", "")))
            for event in services.store.events(TABLE) if event.kind == "flag"]


def check_every_door(client: TestClient, services: Services, ids: dict[str, str],
                     deal: str, where: str) -> int:
    """Fail on the first secret a door shows; the number of secrets looked for."""
    state = state_of(services)
    secrets = secrets_of(state, SEED if deal == "seed" else None, refused_moves(services))
    for door, served, text in read_doors(client, services, ids):
        found = leaks(secrets, served, text)
        assert not found, f"{door} {where} shows {found[0]}"
    return len(secrets)


@pytest.mark.parametrize("deal", ["table", "seed"])
@pytest.mark.parametrize("game", GAMES)
def test_no_public_door_shows_a_secret(advised: Services, game: str, deal: str) -> None:
    rng = random.Random(11)
    with TestClient(create_app(advised)) as client:
        start(client, game, deal)
        match = add_tournament(client, game)
        ids = {"table_id": TABLE, "tournament_id": CUP, "match_id": str(match), "game": game,
               "name": players_of(game)[0]}
        looked_for, moves = 0, 0
        while moves < MAX_STEPS:
            if moves in CHECKPOINTS:
                declare_a_hidden_refusal(client, state_of(advised))
                settle_advice(advised)
                looked_for += check_every_door(client, advised, ids, deal,
                                               f"after {moves} moves")
            if not step(advised, rng):
                break
            moves += 1
        assert state_of(advised).is_over(), f"{game} did not end in {MAX_STEPS} moves"
        looked_for += check_every_door(client, advised, ids, deal, "at the game's end")
        if deal == "seed" or game in ("removal", "small-warehouse", "pick-n-packers"):
            assert looked_for > 0  # the game has secrets, and they were looked for
