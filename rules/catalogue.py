"""Component catalogues: JSON data files shipped in ``rules/catalogues/``.

A catalogue describes one physical copy of a game (cards, tiles, boards). Edit
the JSON, or pass another mapping to :meth:`rules.Game.new_game`, to match a
copy you own.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def _load(name: str) -> str:
    return resources.files("rules.catalogues").joinpath(f"{name}.json").read_text("utf-8")


def default_catalogue(name: str) -> dict[str, Any]:
    """A fresh copy of the default catalogue of game ``name`` (e.g. ``"moving-day"``)."""
    return json.loads(_load(name))
