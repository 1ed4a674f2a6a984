"""One registry of games, by name.

Every package (or module) in :mod:`rules.games` registers its game when imported;
the registry imports them all the first time it is asked, so adding a game is
adding one package.
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
        importlib.import_module(f"rules.games.{module.name}")
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
