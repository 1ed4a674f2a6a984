"""``packref advise``'s JSON inputs (docs/formats.md §8): the piece in hand and where it may go.

Small Warehouse: ``{"grid": [rows], "card": [rows]}``; Removal: a §4 truck document plus
``"tile"``; ``--state``: a game as ``State.to_json()`` writes it. Each is validated with
the same readers as ``packref score`` and ``packref removal`` (every mistake names its JSON
path); a game's log is checked action by action by its rules.
"""

from __future__ import annotations

from typing import Any

from rules import RulesError, State, UnknownGame, get_game
from rules.engine import json_copy
from rules.games.removal.advice import rank_truck_placements
from rules.games.small_warehouse import NO_CARD
from rules.games.small_warehouse.advice import rank_warehouse_placements
from station.inputs.removal import load_truck, read_truck_document
from station.inputs.small_warehouse import GRID_SYMBOLS
from station.jsonin import Node


def small_warehouse_document(document: Node) -> dict[str, Any]:
    """Every legal placement of ``card`` in ``grid``, best first."""
    grid = document["grid"].grid(GRID_SYMBOLS)
    card_node = document["card"]
    card = card_node.grid(GRID_SYMBOLS)
    if all(square == NO_CARD for row in card for square in row):
        raise card_node.fail("must have at least one square (not only '.' cut-outs)")
    ranked = rank_warehouse_placements(grid, card)
    return {"placements": [placement.to_json() for placement in ranked]}


def removal_document(document: Node) -> dict[str, Any]:
    """Every legal placement of ``tile`` (no helpers) in the truck, best first.

    The document's ``placements`` are loaded first as ``packref removal truck`` does (an
    illegal one is skipped, as §4 says); its ``drive`` and ``final`` play no part.
    """
    parsed = read_truck_document(document)
    name = document["tile"].string()
    if name not in parsed.tiles:
        raise document["tile"].fail(f"no tile called {name!r} in $.tiles")
    truck, _ = load_truck(parsed)
    ranked = rank_truck_placements(truck, parsed.tiles[name])
    return {"placements": [placement.to_json() for placement in ranked]}


# -- --state: a game in progress --------------------------------------------------------------
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
