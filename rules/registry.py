"""One registry of games, by name.

Every package (or module) in :mod:`rules.games` names its game ``GAME``; the registry
imports them all the first time it is asked and registers each, so adding a game is
adding one package. The games never import the registry (no cycle): a game made
elsewhere, e.g. in a test, is added with :func:`register`.
"""

from __future__ import annotations

import importlib
import pkgutil

import rules.games
from rules.engine import Game
from rules.errors import UnknownGame

_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    """Add ``game`` to the registry under ``game.name`` and return it."""
    _GAMES[game.name] = game
    return game


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    for module in pkgutil.iter_modules(rules.games.__path__):
        game = getattr(importlib.import_module(f"rules.games.{module.name}"), "GAME", None)
        if isinstance(game, Game) and game.name not in _GAMES:
            register(game)
    _discovered = True


def get_game(name: str) -> Game:
    """The registered game called ``name``."""
    _discover()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGame(f"no game called {name!r} (known: {known})") from None


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    _discover()
    return sorted(_GAMES)
