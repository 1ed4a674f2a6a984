"""Advice on a game in progress within a time budget: the entry point of ``packref advise
--state`` and of a worker process beside the live loop, and the reader of its ``--state``
document (a game as ``State.to_json()`` writes it; docs/formats.md §8).

``advise_state`` takes the JSON document the station stores for a game (``State.to_json()``)
and returns a JSON answer; it imports nothing of the live loop, the web pages or the CLI,
so a ``concurrent.futures.ProcessPoolExecutor`` can run it while the loop goes on.

Example::

    >>> from rules import get_game
    >>> state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cy"], seed=2)
    >>> answer = advise_state(state.to_json(), seconds=0.2)
    >>> answer["player"], sorted(answer["win_chances"]), len(answer["actions"]) <= 3
    ('Cy', ['Ana', 'Ben', 'Cy'], True)
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from rules import RulesError, State, UnknownGame, get_game
from rules.advice.lookahead import Advisor
from rules.engine import json_copy
from station.config import ADVICE_CREDIBLE_WIDTH
from station.errors import InputError
from station.jsonin import Node

MAX_SECONDS = 600.0
BUDGET_SHARE = 0.95  # of the budget for the search; the rest reads the game and answers

#: A win chance is shown only when every player's 95 % interval (Wilson's, from the playouts
#: from the position itself behind it) is at most this wide: 0.30 is "63 %, give or take 15
#: points" at worst, about 40 playouts at an even chance (docs/advisor.md, "When a chance is
#: shown").
CREDIBLE_WIDTH = ADVICE_CREDIBLE_WIDTH
Z_95 = 1.959964  # the normal quantile of a two-sided 95 % interval


def wilson_interval(chance: float, playouts: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a win rate ``chance`` seen over ``playouts`` games (a
    shared win counts its fraction); (0, 1) when nothing was played.

    >>> [round(x, 3) for x in wilson_interval(0.5, 40)]
    [0.352, 0.648]
    >>> wilson_interval(1.0, 0)
    (0.0, 1.0)
    """
    if playouts <= 0:
        return 0.0, 1.0
    n, z2 = playouts, z * z
    centre = (chance + z2 / (2 * n)) / (1 + z2 / n)
    half = z * ((chance * (1 - chance) / n + z2 / (4 * n * n)) ** 0.5) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def moves_made(state: State) -> int:
    """The players' moves in ``state``'s game so far (reveals are the table's, not moves)."""
    return sum(1 for action in state.log if action.get("type") != "reveal")


def credible_chances(answer: Mapping[str, Any], moves: int,
                     width: float | None = CREDIBLE_WIDTH) -> dict[str, Any]:
    """Whether ``answer``'s win chances (:func:`advise_state`'s) may be shown, with each
    player's interval: ``{"shown": bool, "intervals": {player: [low, high]}, "why": str}``.
    Hidden before the first move (nothing has happened yet: the estimate says only who sits
    where) and while an interval is wider than ``width``; ``width`` None: always shown.

    >>> answer = {"win_chances": {"Ana": 0.5, "Ben": 0.5}, "position_playouts": 8}
    >>> credible_chances(answer, moves=3)["why"]
    'too uncertain yet (8 playouts)'
    >>> answer["position_playouts"] = 200
    >>> credible_chances(answer, moves=3)["shown"], credible_chances(answer, moves=0)["why"]
    (True, 'shown after the first move')
    """
    chances = answer.get("win_chances") or {}
    # the chances rest on the playouts from the position itself (rules.advice.lookahead)
    behind = int(answer.get("position_playouts", 0))
    intervals = {name: [round(bound, 4) for bound in wilson_interval(chance, behind)]
                 for name, chance in chances.items()}
    widest = max((high - low for low, high in intervals.values()), default=1.0)
    if width is None:
        return {"shown": True, "intervals": intervals, "why": "", "playouts": behind}
    why = ("shown after the first move" if moves == 0 else
           "" if chances and widest <= width else f"too uncertain yet ({behind} playouts)")
    return {"shown": not why, "intervals": intervals, "why": why, "playouts": behind}


def warm_up() -> int:
    """Nothing but this module's imports (the rules, the readers): a worker process calls it
    once at start, so that the first position is not kept waiting for them. Its pid."""
    return os.getpid()


def deadline_stop(seconds: float, clock: Callable[[], float] = time.perf_counter
                  ) -> Callable[[], bool]:
    """A callback that turns true once ``seconds`` have passed since it was made."""
    deadline = clock() + seconds
    return lambda: clock() >= deadline


def advise_state(document: Mapping[str, Any], seconds: float = 1.0, seed: int = 0,
                 game_name: str | None = None, restore: bool = False,
                 min_playouts: int = 0, max_playouts: int | None = None) -> dict[str, Any]:
    """The three best actions for the player to act in ``document``'s game, each with its
    expected final score and every player's win chance, found within ``seconds``.

    ``restore``: take the document's ``state`` as the position (the station's
    :func:`~rules.advice.knowledge.public_document`, whose empty log leads nowhere near it).
    ``min_playouts``: played whatever the clock says (the budget may then be overrun);
    ``max_playouts``: exactly this many, whatever the clock says (the same answer for the
    same document on any machine; ``seconds`` then only bounds what a caller may ask).

    Raises :class:`~station.errors.InputError` (naming the JSON path) for a document that
    is not a game of ``game_name`` (default: the one it names) or a game already over.
    """
    started = time.perf_counter()
    if not 0 < seconds <= MAX_SECONDS:
        raise InputError(f"--seconds: must be more than 0 and at most {MAX_SECONDS:g}")
    node = Node(document)
    name = game_name if game_name is not None else node["game"].string()
    state = read_state_document(node, name, restore)
    if state.is_over():
        raise node["log"].fail("the game is over: there is nothing to advise")
    stop = None if max_playouts is not None else deadline_stop(  # a fixed work: no clock
        seconds * BUDGET_SHARE - (time.perf_counter() - started))
    advice = Advisor(name).advise(state, random.Random(seed), stop, max_playouts=max_playouts,
                                  min_playouts=min_playouts)
    answer = {"game": name, **advice.to_json(state.players)}
    answer["seconds"] = round(time.perf_counter() - started, 3)
    return answer


# -- --state: a game in progress ---------------------------------------------------------
def read_state_document(document: Node, game_name: str, restore: bool = False) -> State:
    """The game a ``State.to_json()`` document describes, rebuilt from its setup and log (each
    action checked by the rules) and compared with its ``state`` when it has one.

    ``restore``: the document's ``state`` is the position, taken as it is after its log (for
    a position no log leads to: what the table sees of a game, made by the station,
    :func:`rules.advice.knowledge.public_document`).
    """
    named = document["game"].string()
    if named != game_name:
        raise document["game"].fail(f"is {named!r}, not {game_name!r}")
    try:
        game = get_game(game_name)
    except UnknownGame as error:
        raise document["game"].fail(str(error)) from None
    players = [node.string(non_empty=True) for node in document["players"].items(min_length=1)]
    options_node = document.get("options", {})
    try:
        options = game.options_with_defaults(options_node.obj())
    except ValueError as error:
        raise options_node.fail(str(error)) from None
    setup = document["setup"].obj()
    try:
        state = game.state_class(game, players, options, setup)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise document["setup"].fail(f"is not a {game_name} setup for these players "
                                     f"({type(error).__name__}: {error})") from None
    for node in document["log"].items():
        node["type"].string()
        try:
            state.apply(json_copy(node.value))
        except RulesError as refused:
            raise node.fail(str(refused) or type(refused).__name__) from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise node.fail(f"is not a {game_name} action ({type(error).__name__}: "
                            f"{error})") from None
    if restore:
        return _restored(document, state)
    if document.has("state") and document["state"].obj() != state.data:
        raise document["state"].fail("is not the position its setup and log lead to")
    return state


def _restored(document: Node, replayed: State) -> State:
    """``replayed``'s game at the document's own position (``$.state``)."""
    game = replayed.game
    try:
        state = game.state_class(game, replayed.players, replayed.options, replayed.setup,
                                 restore=document["state"].obj())
        state.log = replayed.log
        state.is_over()
        state.current_player()
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise document["state"].fail(f"is not a {game.name} position ({type(error).__name__}: "
                                     f"{error})") from None
    return state
