"""Referees: per-game translators from plain observations (drone events, positions,
button presses) to the game's actions. Pure like the engines: no I/O, no clock,
and no import of ``hardware``, ``vision`` or ``station``.
"""

from rules.referees.pick_n_packers import PickNPackersReferee, RefereeResult, translate

__all__ = ["PickNPackersReferee", "RefereeResult", "translate"]
