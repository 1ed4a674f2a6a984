"""The advisor's tuning: how many actions it looks at, how it plays its playouts.

A game's own settings (how many actions it screens, its one-move heuristic) are its
:class:`~rules.engine.AdviceTuning`, ``Game.advice_tuning``.
"""

from __future__ import annotations

TOP_ACTIONS = 3  # actions in an answer
ROOT_CANDIDATES = 8  # actions kept (best by the one-move heuristic) for playouts
MAX_REVEALS = 10_000  # a loop guard for revealing what is pending, not a rule
MAX_STEPS = 100_000  # a loop guard for a playout, not a rule
