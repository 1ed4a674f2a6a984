"""Turning users' JSON files into plain values for the engines, with JSON-path errors.

One module per game, named after it (``moving-day`` -> ``moving_day``); each
module used by ``packref score`` defines ``score_document(node) -> dict`` (its
game's record in :mod:`station.games` names it as the scorer),
which validates the document (structure, ranges and rule violations, each
reported at its JSON path) and returns the contract's output document.
"""
