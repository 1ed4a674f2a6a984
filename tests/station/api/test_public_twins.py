"""Two tables that differ only in what the table cannot see look the same through every
public door, win chances included: a Removal copy whose boxes' values are dealt otherwise,
and a Small Warehouse game whose hand card is another."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules import Action, State
from rules.catalogue import default_catalogue
from rules.playout import random_reveal
from station.api import Services, create_app
from tests.station.api.conftest import AUTH
from tests.station.api.test_public_doors import settle_advice

TWINS = ("twin-a", "twin-b")


def public_doors(client: TestClient, table: str) -> dict[str, Any]:
    """What the public reads of ``table``, with the table's own id and name taken out."""
    doors = {}
    for path in ("", "/events", "/legal-actions", "/outcomes", "/advice"):
        doors[path] = client.get(f"/api/tables/{table}{path}").json()
    doors["picker"] = client.get(f"/tables/{table}/legal-choices").text
    doors["page"] = client.get(f"/tables/{table}").text
    advice = doors.pop("/advice")  # the chances and hints; not how long they took
    doors["advice"] = {key: advice.get(key) for key in ("win_chances", "hints")}
    text = json.dumps(doors, sort_keys=True).replace(table, "TABLE")
    text = text.replace(table.replace("-", " ").title(), "TABLE")
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.+]+", "WHEN", text)  # the clock moves between them
    return json.loads(re.sub(r'(seconds\\*": )[\d.]+', r"\g<1>0", text))  # and so do timings


def start_twins(client: TestClient, game: str, deal: str,
                catalogues: tuple[dict[str, Any] | None, dict[str, Any] | None]) -> None:
    for table, catalogue in zip(TWINS, catalogues, strict=True):
        body: dict[str, Any] = {"game": game, "players": ["Ana", "Ben"], "deal": deal}
        if deal == "seed":
            body["seed"] = 77
        if catalogue is not None:
            body["catalogue"] = catalogue
        answer = client.post("/api/tables", headers=AUTH, json={
            "name": table.replace("-", " ").title(), "id": table, "game": body})
        assert answer.status_code == 201, answer.text


def state_at(services: Services, table: str) -> State:
    current = services.station.table(table).current
    assert current is not None
    return current.state


@pytest.fixture
def playouts() -> int:
    """Enough playouts a position for the chances to tell a box's value (with a dozen, the
    old leak gave both twins the same figures)."""
    return 40


def play_twins(services: Services, client: TestClient, compare_at: set[int],
               twin_reveal: Callable[[Action], Action],
               allowed: Callable[[State, Action], bool],
               comparable: Callable[[], bool]) -> int:
    """Play both tables alike (the second one's reveals through ``twin_reveal``) and compare
    their public doors at the steps of ``compare_at`` while ``comparable()``; the number of
    steps compared."""
    rng, compared = random.Random(5), 0
    for number in range(max(compare_at) + 1):
        first = state_at(services, TWINS[0])
        if first.is_over() or not comparable():
            break
        if number in compare_at:
            for table in TWINS:
                settle_advice(services, table)
            assert public_doors(client, TWINS[0]) == public_doors(client, TWINS[1]), \
                f"the twins differ after {number} steps"
            compared += 1
        if first.is_chance():
            reveal = random_reveal(first, rng)
            services.station.reveal(TWINS[0], reveal, "organiser")
            services.station.reveal(TWINS[1], twin_reveal(reveal), "organiser")
        else:
            action = rng.choice([a for a in first.legal_actions() if allowed(first, a)])
            for table in TWINS:
                services.station.correct(table, action, "organiser")
    return compared


def test_removal_tables_whose_boxes_differ_in_value_look_the_same(advised: Services) -> None:
    copy = default_catalogue("removal")
    other = json.loads(json.dumps(copy))
    values = [box["value"] for box in other["boxes"]]
    other_values = values[1:] + values[:1]  # the same values, on other boxes
    assert other_values != values
    for box, value in zip(other["boxes"], other_values, strict=True):
        box["value"] = value
    with TestClient(create_app(advised)) as client:
        start_twins(client, "removal", "seed", (copy, other))
        compared = play_twins(advised, client, {0, 10, 20, 30, 40}, lambda reveal: reveal,
                              lambda state, action: True, lambda: True)
        assert compared == 5
        chances = client.get(f"/api/tables/{TWINS[0]}/advice").json()["win_chances"]
        assert chances is not None  # the chances compared were real ones


def test_small_warehouse_tables_whose_hand_card_differs_look_the_same(
        advised: Services) -> None:
    swap: dict[str, str] = {}

    def twin_reveal(reveal: Action) -> Action:
        """Ana's hand card is another at the second table (and that card, drawn later
        elsewhere, is Ana's first one there)."""
        if reveal.get("zone") == "hand" and reveal.get("player") == 0 and not swap:
            unseen = [o.action["card"] for o in state_at(advised, TWINS[1]).chance_outcomes()]
            other = next(card for card in unseen if card != reveal["card"])
            swap.update({reveal["card"]: other, other: reveal["card"]})
        return {**reveal, "card": swap.get(reveal["card"], reveal["card"])}

    def hand_still_hidden() -> bool:
        """While neither card of the swap is on the table, the twins' tables look alike."""
        shown = json.dumps(state_at(advised, TWINS[0]).public_view())
        return not any(card in shown for card in swap)

    def from_the_supply(state: State, action: Action) -> bool:
        return action.get("source") != "hand"

    with TestClient(create_app(advised)) as client:
        start_twins(client, "small-warehouse", "table", (None, None))
        compared = play_twins(advised, client, set(range(20)), twin_reveal, from_the_supply,
                              hand_still_hidden)
        assert swap, "Ana's hand card was never dealt"
        assert compared >= 5
        hands = [state_at(advised, table).data["hands"][0] for table in TWINS]
        assert hands[0] != hands[1]  # the twins did differ in Ana's hand
        chances = client.get(f"/api/tables/{TWINS[0]}/advice").json()["win_chances"]
        assert chances is not None
