"""The advisor beside the live loop: a worker answers after each action, the loop never
waits, a newer action supersedes an older one, the worker sees only what the table sees."""

from __future__ import annotations

import json
import threading
from concurrent.futures import Executor, Future
from typing import Any

import pytest

from rules import get_game
from station.advice import advise_state
from station.config import AdviceSettings
from station.live.advisor import LiveAdvisor, Position, position_of
from station.live.station import Station

SETTINGS = AdviceSettings(win_chances=True, seconds=0.2, credible_width=None)  # every answer


class HeldExecutor(Executor):
    """Runs nothing until the test says so: shows what the loop hands over, and when."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future[Any], Any, tuple[Any, ...]]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.jobs.append((future, fn, args))
        return future

    def run(self, index: int) -> None:
        future, fn, args = self.jobs[index]
        if future.set_running_or_notify_cancel():
            future.set_result(fn(*args))


def listen(station: Station, table: str = "t1") -> list[dict[str, Any]]:
    """Every advice message published on the table's channel (a hub watcher)."""
    heard: list[dict[str, Any]] = []

    def watcher(channel: str, message: str) -> None:
        if channel == f"table:{table}" and '"type": "advice"' in message:
            heard.append(json.loads(message))

    station.hub.watch(f"table:{table}", watcher)
    return heard


def start(station: Station, game: str = "small-warehouse", players: tuple[str, ...] = (
        "Ana", "Ben"), seed: int = 3) -> None:
    station.start_game("t1", game, list(players), seed, None, "test")


def play(station: Station, count: int = 1) -> None:
    for _ in range(count):
        state = station.table("t1").current.state
        station.correct("t1", dict(state.legal_actions()[0]), "test")


def test_each_action_hands_the_public_game_to_the_worker(station: Station) -> None:
    executor = HeldExecutor()
    LiveAdvisor(station, SETTINGS, executor=executor).attach()
    start(station)
    play(station)
    assert len(executor.jobs) == 2  # the start, then the action: the loop did not wait
    _, fn, (document, seconds, _seed, _name, restore, least, most) = executor.jobs[-1]
    assert restore and least == SETTINGS.min_playouts and most == SETTINGS.max_playouts
    assert fn is advise_state and seconds == SETTINGS.seconds
    state = station.table("t1").current.state
    assert document["state"] == state.public_view() and document["log"] == []
    assert document["setup"]["deal"] == "table" and "draw_pile" not in document["setup"]
    assert document["state"]["hands"] == [[None], [None]]  # no hand card leaves the loop


def test_an_answer_arrives_later_on_the_live_channel(station: Station) -> None:
    executor = HeldExecutor()
    advisor = LiveAdvisor(station, SETTINGS, executor=executor).attach()
    heard = listen(station)
    start(station)
    assert heard == [] and advisor.message("t1") is None
    executor.run(0)
    (message,) = heard
    live = station.table("t1")
    assert (message["game"], message["actions"]) == (live.current.seq, 0)
    assert [line["player"] for line in message["win_chances"]] == ["Ana", "Ben"]
    assert sum(line["chance"] for line in message["win_chances"]) == pytest.approx(1, abs=1e-3)
    assert message["hints"] is None and message["hints_on"] is False
    assert "all_hints" not in message and message["playouts"] > 0


def test_a_newer_action_supersedes_a_pending_computation(station: Station) -> None:
    executor = HeldExecutor()
    LiveAdvisor(station, SETTINGS, executor=executor).attach()
    heard = listen(station)
    start(station)
    play(station)
    assert executor.jobs[0][0].cancelled()  # never started: dropped
    running, fn, args = executor.jobs[1]
    assert running.set_running_or_notify_cancel()  # the worker took it...
    play(station)
    assert not running.cancelled()
    running.set_result(fn(*args))  # ... and finishes after the next action
    assert heard == []  # stale: dropped
    executor.run(2)
    assert [message["actions"] for message in heard] == [2]


def test_the_hints_switch_shows_the_acting_players_best_moves_in_words(
        station: Station) -> None:
    executor = HeldExecutor()
    LiveAdvisor(station, SETTINGS, executor=executor).attach()
    heard = listen(station)
    start(station)
    executor.run(0)
    station.set_hints("t1", True, "organiser")
    assert len(executor.jobs) == 1  # the same position: the answer is sent again, with hints
    shown = heard[-1]
    assert shown["hints_on"] is True and 1 <= len(shown["hints"]) <= 3
    for hint in shown["hints"]:
        assert hint["words"].startswith("Ana placed card ")
        assert hint["action"]["source"] == "supply"  # no hand card nobody has seen
    station.set_hints("t1", False, "organiser")
    assert heard[-1]["hints"] is None and heard[-1]["win_chances"] == shown["win_chances"]


def test_with_win_chances_off_only_hints_make_the_worker_run(station: Station) -> None:
    executor = HeldExecutor()
    LiveAdvisor(station, AdviceSettings(win_chances=False), executor=executor).attach()
    heard = listen(station)
    start(station)
    play(station)
    assert executor.jobs == []
    station.set_hints("t1", True, "organiser")
    executor.run(0)
    assert heard[-1]["win_chances"] is None and heard[-1]["hints"]
    station.set_hints("t1", False, "organiser")
    play(station)
    assert len(executor.jobs) == 1  # hints off: nothing to study
    station.set_hints("t1", True, "organiser")  # on again, at a newer position: studied anew
    executor.run(1)
    assert heard[-1]["actions"] == 2 and heard[-1]["hints"]


def test_a_tournament_rule_keeps_hints_hidden(station: Station) -> None:
    executor = HeldExecutor()
    refusals: dict[str, str | None] = {"t1": "not in this tournament"}
    LiveAdvisor(station, SETTINGS, lambda table, _seq: refusals[table], executor).attach()
    heard = listen(station)
    start(station)
    station.set_hints("t1", True, "organiser")
    executor.run(0)
    assert heard[-1]["hints_on"] is False and heard[-1]["hints"] is None
    refusals["t1"] = None
    station.broadcast(station.table("t1"))
    assert heard[-1]["hints_on"] is True and heard[-1]["hints"]


def test_game_over_hides_the_bar(station: Station) -> None:
    executor = HeldExecutor()
    LiveAdvisor(station, SETTINGS, executor=executor).attach()
    heard = listen(station)
    start(station)
    executor.run(0)
    while not station.table("t1").current.state.is_over():
        play(station)
    assert position_of(station.table("t1")) is None
    assert heard[-1]["win_chances"] is None and heard[-1]["position"] is None


def test_a_game_without_a_station_record_is_not_advised(station: Station, toy_game: str) -> None:
    executor = HeldExecutor()
    LiveAdvisor(station, SETTINGS, executor=executor).attach()
    station.start_game("t1", toy_game, ["Ana", "Ben"], 0, None, "test")
    assert executor.jobs == []


def test_a_real_worker_process_answers_without_holding_up_the_loop(station: Station) -> None:
    """The default executor: a spawned worker process; the write returns at once."""
    advisor = LiveAdvisor(station, SETTINGS).attach()
    arrived = threading.Event()
    heard: list[dict[str, Any]] = []

    def watcher(channel: str, message: str) -> None:
        if '"type": "advice"' in message:
            heard.append(json.loads(message))
            arrived.set()

    station.hub.watch("table:t1", watcher)
    try:
        start(station, "pick-n-packers", ("Ana", "Ben", "Cy", "Dee"), 4)
        play(station)
        assert not heard  # the worker is still starting: the write did not wait for it
        assert arrived.wait(120)
        assert heard[-1]["actions"] == 1 and len(heard[-1]["win_chances"]) == 4
    finally:
        advisor.close()


def _speculated(station: Station, table: str, second_card: int) -> None:
    """Two speculation cards laid face down at a 5-player Pick 'n Packers table."""
    station.create_table(table, table)
    station.start_game(table, "pick-n-packers", ["Ana", "Ben", "Cy", "Dee", "Eve"], 6, None, "t")
    station.correct(table, {"type": "speculate", "card": 3}, "t")
    station.correct(table, {"type": "speculate", "card": second_card}, "t")


def test_hidden_components_never_reach_the_advice(station: Station) -> None:
    """Two tables differing only in a face-down speculation card (and, in Small Warehouse,
    in the hands and the draw pile's order) get the same advice for the same seed."""
    executor = HeldExecutor()
    LiveAdvisor(station, SETTINGS, executor=executor).attach()
    _speculated(station, "a", 7)
    _speculated(station, "b", 8)
    documents = [executor.jobs[index][2][0] for index in (2, 5)]  # after each second card
    assert station.table("a").current.state.data["speculations"] != \
        station.table("b").current.state.data["speculations"]
    assert documents[0] == documents[1]
    assert advise_for_playouts(documents[0]) == advise_for_playouts(documents[1])
    game = get_game("small-warehouse")
    first = game.new_game(["Ana", "Ben"], seed=8)
    setup = {**first.setup, "draw_pile": list(reversed(first.setup["draw_pile"])),
             "hands": list(reversed(first.setup["hands"]))}
    second = game.replay(first.to_json() | {"setup": setup})
    assert first.data["hands"] != second.data["hands"]
    from rules.advice.knowledge import public_document

    assert public_document(first) == public_document(second)


def advise_for_playouts(document: dict[str, Any]) -> dict[str, Any]:
    """The advisor's answer on ``document`` after a fixed number of playouts (no clock)."""
    import random

    from rules.advice.lookahead import Advisor

    state = get_game(document["game"]).from_json(document)
    return Advisor(document["game"]).advise(state, random.Random(0), max_playouts=20) \
        .to_json(state.players)


def test_a_failed_search_is_asked_again_by_the_next_page(station: Station) -> None:
    executor = HeldExecutor()
    advisor = LiveAdvisor(station, SETTINGS, executor=executor).attach()
    start(station)
    executor.jobs[0][0].set_running_or_notify_cancel()
    executor.jobs[0][0].set_exception(RuntimeError("the worker died"))
    advisor.ensure("t1")
    assert len(executor.jobs) == 2
    advisor.ensure("t1")
    assert len(executor.jobs) == 2  # pending: not twice


def test_position_names_the_last_applied_event(station: Station) -> None:
    start(station)
    game_seq = station.table("t1").current.seq
    assert position_of(station.table("t1")) == Position(game_seq, 0, game_seq)
    play(station)
    station.undo("t1", "test")
    play(station)
    live = station.table("t1")
    assert position_of(live) == Position(game_seq, 1, live.current.applied[-1][0])
