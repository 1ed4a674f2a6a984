"""The advisor's tuning: how many actions it looks at, how it plays its playouts."""

from __future__ import annotations

TOP_ACTIONS = 3  # actions in an answer
ROOT_CANDIDATES = 8  # actions kept (best by the one-move heuristic) for playouts
# Actions screened by the one-move heuristic at the root, at most (a random sample beyond).
ROOT_SCREEN = {"small-warehouse": 2000, "removal": 60, "moving-day": 80}
DEFAULT_ROOT_SCREEN = 400
# Actions a greedy rollout step compares (a random sample of the legal ones).
ROLLOUT_SAMPLE = {"small-warehouse": 6, "removal": 2, "moving-day": 3}
DEFAULT_ROLLOUT_SAMPLE = 4
MAX_REVEALS = 10_000  # a loop guard for revealing what is pending, not a rule
MAX_STEPS = 100_000  # a loop guard for a playout, not a rule
# Small Warehouse: an empty box costs this much in the heuristic (the tie-break of §1, §8).
EMPTY_BOX_PENALTY = 0.01
# Small Warehouse: a kind whose biggest block is one square short of scoring is worth this
# much per square of that block (a block of 3 is close to scoring; 0 would be plain greedy).
NEAR_BLOCK_VALUE = 0.5
