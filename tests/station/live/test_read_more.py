"""A camera reading the referee cannot tell yet (cells it could not read leave several
placements) waits for a later reading before the table is flagged (rules.ReadMore)."""

from __future__ import annotations

from pathlib import Path

from rules import get_game
from station.live.hub import Hub
from station.live.station import Station
from station.live.table import READ_MORE_WAIT_S
from station.store import EventStore, open_database
from tests.rules.games.small_warehouse.test_referee_small_warehouse import (
    placed_copy,
    seen_by_camera,
)

PLAYERS = ["Ana", "Ben"]


def seeded_table(tmp_path: Path) -> Station:
    station = Station(EventStore(open_database(f"sqlite:///{tmp_path / 'db.sqlite3'}")), Hub())
    station.create_table("Cam", "cam")
    station.start_game("cam", "small-warehouse", PLAYERS, 7, None, "organiser")
    return station


def half_read_placement() -> tuple[dict, dict]:
    """Ana's first placement as the camera reads it whole, and with all but one of the
    new cells unread (several cards fit)."""
    state = get_game("small-warehouse").new_game(PLAYERS, seed=7)
    after = placed_copy(state, next(a for a in state.legal_actions() if a["source"] == "supply"))
    changed = {(r, c) for r, line in enumerate(after.data["grids"][0])
               for c, symbol in enumerate(line) if symbol != state.data["grids"][0][r][c]}
    return seen_by_camera(after), seen_by_camera(after, {"Ana": changed - {min(changed)}})


def kinds(station: Station) -> list[str]:
    """The kinds of the events after the game began."""
    events = [event.kind for event in station.store.events("cam")]
    return events[events.index("game") + 1:]


def test_a_reading_that_cannot_be_told_yet_waits_for_a_better_one(tmp_path: Path) -> None:
    whole, half = half_read_placement()
    station = seeded_table(tmp_path)
    station.observe("cam", {**half, "t": 1.0}, "camera", "camera")
    station.observe("cam", {**whole, "t": 2.5}, "camera", "camera")
    assert kinds(station) == ["observation", "observation", "action"]  # no flag in between


def test_it_is_flagged_once_it_stayed_unreadable_past_the_wait(tmp_path: Path) -> None:
    _, half = half_read_placement()
    station = seeded_table(tmp_path)
    station.observe("cam", {**half, "t": 1.0}, "camera", "camera")
    station.observe("cam", {**half, "t": 1.0 + READ_MORE_WAIT_S}, "camera", "camera")
    assert kinds(station) == ["observation", "observation", "flag"]
    assert "the camera must read more of its cells" in station.refresh(
        "cam").flags.popitem()[1]["reason"]


def test_a_person_entering_it_is_answered_at_once(tmp_path: Path) -> None:
    _, half = half_read_placement()
    station = seeded_table(tmp_path)
    station.observe("cam", {**half, "t": 1.0}, "api", "organiser")
    assert kinds(station) == ["observation", "flag"]  # only a camera's reading waits
