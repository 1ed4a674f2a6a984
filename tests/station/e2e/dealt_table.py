"""A table dealt by hand, driven through the station's HTTP API only (docs/formats.md §9).

The end-to-end tests of the four games share this: the test is the table (it
deals with its own generator and plays by the rulebook); this module is how it
talks to the station — observations as a camera, drone or button source posts
them, and the picker (``/outcomes`` then ``/reveals``) where no sensor sees. It
touches no station internals: only routes, so it holds whatever the station
does inside.

Example::

    table = DealtTable(client, "small-warehouse", ["Ana", "Ben"])
    table.observe(reading)                       # a camera reading
    table.pick(lambda action: action["zone"] == "supply")   # a person's pick
    assert table.flags() == []
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from fastapi.testclient import TestClient

from rules import State, get_game
from station.api import build_services, create_app
from station.config import Settings
from station.store import FixedClock
from tests.station.api.conftest import AUTH

Action = dict[str, Any]
# Keys that, holding a list, would give the order of what is still face down (a count is
# public: everyone sees how thick a pile is).
HIDDEN_KEYS = frozenset({"deck", "pile", "draw_pile", "bag", "order", "setup", "seed_deal"})


class DealtTable:
    """One table, its game dealt by hand, seen only through the API.

    ``tally`` counts the applied actions by where they came from and their type
    (``"camera reveal"``, ``"picker reveal"``, ``"button speculate"``...), and
    ``"actions"`` all of them.
    """

    def __init__(self, client: TestClient, game: str, players: list[str],
                 options: dict[str, Any] | None = None, table_id: str = "t1",
                 mirror: bool = False, catalogue: dict[str, Any] | None = None) -> None:
        self.client, self.id = client, table_id
        start: dict[str, Any] = {"game": game, "players": players, "deal": "table"}
        if options is not None:
            start["options"] = options
        if catalogue is not None:  # a copy's own catalogue, sent inline
            start["catalogue"] = catalogue
        answer = client.post("/api/tables", headers=AUTH, json={
            "name": f"{game} dealt by hand", "id": table_id, "game": start})
        assert answer.status_code == 201, answer.text
        assert answer.json()["game"]["deal"] == "table"
        self.tally: Counter[str] = Counter()
        #: The players' own copy of the position, moved on by what the station applied (the
        #: test's players choose legal moves from it; the station never reads it).
        self.mirror: State | None = None
        if mirror:
            self.mirror = get_game(game).new_game(players, options=options, deal="table")
        self.refused: list[dict[str, Any]] = []  # flag events, as the routes answered them
        self.applied: list[Action] = []  # every action applied, in order
        self.unexpected: list[dict[str, Any]] = []  # those outside :meth:`breaking_a_rule`
        self._expecting = False

    def __repr__(self) -> str:
        return f"<DealtTable {self.id} {dict(self.tally)}>"

    # -- what the table's sources send ----------------------------------------------------
    def observe(self, observation: dict[str, Any], source: str = "camera") -> list[Action]:
        """Post one stable observation; the actions it led to (reveals counted as ``source``'s)."""
        answer = self.client.post(f"/api/tables/{self.id}/observations", headers=AUTH,
                                  json={"observation": observation, "source": source})
        assert answer.status_code == 201, answer.text
        return self._taken(answer.json()["events"], "camera" if source == "camera" else source)

    def observe_twice(self, observation: dict[str, Any], source: str = "camera") -> list[Action]:
        """A reading, then the same reading again: the second must change nothing."""
        done = self.observe(observation, source)
        assert self.observe(observation, source) == [], "a repeated reading changed the game"
        return done

    def declare(self, action: Action) -> list[Action]:
        """An action declared at the table (a button), as the station takes it."""
        return self.observe({"kind": "declared", "action": action}, source="button")

    def outcomes(self) -> list[Action]:
        """The picker's list: every reveal the table may enter now."""
        answer = self.client.get(f"/api/tables/{self.id}/outcomes?limit=5000",
                                 headers=AUTH).json()  # the list is the organiser's
        assert answer["total"] == len(answer["outcomes"])
        return [outcome["action"] for outcome in answer["outcomes"]]

    def pick(self, matches: Callable[[Action], bool]) -> Action:
        """A person picks, from the picker's list, the first outcome that is the table's truth."""
        listed = [action for action in self.outcomes() if matches(action)]
        assert listed, "the picker does not list what lies on the table"
        answer = self.client.post(f"/api/tables/{self.id}/reveals", headers=AUTH,
                                  json={"action": listed[0]})
        assert answer.status_code == 201, answer.text
        self._taken(answer.json()["events"], "picker")
        return listed[0]

    def assert_mirrored(self) -> None:
        """The players' copy and the station's public position agree."""
        assert self.mirror is not None
        assert self.game()["state"] == json.loads(json.dumps(self.mirror.public_view()))

    def legal_actions(self) -> list[Action]:
        answer = self.client.get(f"/api/tables/{self.id}/legal-actions?limit=5000",
                                 headers=AUTH).json()
        return answer["actions"]

    def _taken(self, events: list[dict[str, Any]], by: str) -> list[Action]:
        actions = [event["action"] for event in events if event["kind"] == "action"]
        self.applied += actions
        flagged = [event for event in events if event["kind"] == "flag"]
        self.refused += flagged
        self.unexpected += [] if self._expecting else flagged
        self.tally.update(f"{by} {action['type']}" for action in actions)
        if self.mirror is not None:
            for action in actions:
                self.mirror.apply(dict(action))
        self.tally["actions"] += len(actions)
        return actions

    # -- what anybody can read ------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return self.client.get(f"/api/tables/{self.id}").json()

    def game(self) -> dict[str, Any]:
        return self.snapshot()["game"]

    def flags(self) -> list[dict[str, Any]]:
        return self.snapshot()["flags"]

    @contextlib.contextmanager
    def breaking_a_rule(self) -> Iterator[None]:
        """While a component lies where the rules forbid: the only time a flag is right."""
        self._expecting = True
        try:
            yield
        finally:
            self._expecting = False

    def assert_flagged_only(self, reason: str, closed: bool = False) -> None:
        """The flags raised are exactly those raised while a rule was broken, each for
        ``reason``, none of them applied (zero false flags); ``closed``: each closed itself
        once the camera saw the table put right (else they are open still)."""
        assert self.unexpected == [], self.unexpected
        assert self.refused, "the broken rule was not flagged"
        assert [(flag["seq"], flag["at"]) for flag in self.flags()] == ([] if closed else [
            (event["seq"], event["at"]) for event in self.refused])
        for event in self.refused:  # the record's reasons (the public's may hide a card)
            assert reason in event["reason"], event["reason"]

    def assert_public(self, secrets: Iterable[str] = ()) -> None:
        """The public snapshot shows nothing the table cannot see: no key holding an order
        of face-down components, and none of ``secrets`` (JSON strings of hidden things)."""
        snapshot = self.snapshot()
        text = json.dumps(snapshot)
        listed = {key for key, value in _items(snapshot)
                  if key in HIDDEN_KEYS and isinstance(value, list | dict)}
        assert not listed, f"the snapshot lists {sorted(listed)}"
        for secret in secrets:
            assert secret not in text, f"the snapshot shows {secret}"

    def assert_replayed(self, settings: Settings) -> None:
        """A station started afresh over the same database rebuilds this very snapshot."""
        live = self.snapshot()
        restarted = build_services(settings, FixedClock())
        try:
            with TestClient(create_app(restarted)) as client:
                assert client.get(f"/api/tables/{self.id}").json() == live
        finally:
            restarted.database.close()


def _items(document: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) of a JSON document, at any depth."""
    if isinstance(document, dict):
        for key, value in document.items():
            yield key, value
            yield from _items(value)
    elif isinstance(document, list):
        for value in document:
            yield from _items(value)
