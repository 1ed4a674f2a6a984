"""Thresholds and weights of tournament pairing, in one place.

Pairing minimises one integer cost; the weights are tiers far enough apart
that a lower tier can never outweigh one unit of a higher one (a forbidden
pair is worse than any number of repeats, a repeat worse than any standings
gap).
"""

from __future__ import annotations

#: Two players the organiser keeps apart (family, club) at one table.
FORBIDDEN_COST = 10**13
#: Two players locked to different tables at one table (one lock must break).
LOCK_CLASH_COST = 10**12
#: Per earlier meeting of two players now at one table again.
REPEAT_COST = 10**9
#: Per earlier bye of a player given the bye again.
BYE_REPEAT_COST = 10**9
#: A standings gap of ``d`` places between two players at one table costs ``d * d``.

#: Table assignment: a locked player seated at another table.
LOCK_TABLE_COST = 10**7
#: Table assignment: per earlier visit of a player to the same named table.
TABLE_REPEAT_COST = 10**3
#: Table assignment: top games go to the first tables (per place of difference).
TABLE_ORDER_COST = 1

#: 2-player rounds: up to this many players every pair is an edge of the matching graph;
#: above it only pairs at most ``MATCHING_BAND`` (or 4 × rounds played) places apart are.
DENSE_MATCHING_LIMIT = 100
MATCHING_BAND = 20

#: Tables of 3+: up to this many players the search is exhaustive (branch and bound).
EXACT_SEARCH_LIMIT = 16
#: Node budget of the exhaustive search (it keeps the best round found if it runs out).
EXACT_SEARCH_NODES = 400_000
#: Perturbation rounds of the local search used above ``EXACT_SEARCH_LIMIT``.
LOCAL_SEARCH_KICKS = 300

#: Tie-breakers of a new tournament when none are given (and no game, or one without a
#: record; a game's record gives its own: ``station.games.GameRecord.tie_breakers``).
DEFAULT_TIE_BREAKERS = ["wins", "points", "head_to_head"]
#: A player's win rate counts at least this much in ``opponents_strength`` (as MTG's 1/3 floor).
OPPONENT_WIN_RATE_FLOOR = 1 / 3
