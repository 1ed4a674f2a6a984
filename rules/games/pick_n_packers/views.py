"""What a Pick 'n Packers table shows, as typed read-only values for presenters.

:class:`~rules.games.pick_n_packers.engine.PickNPackersState` hands these out
(:meth:`~rules.games.pick_n_packers.engine.PickNPackersState.played_rounds`), so that a
presenter never indexes the engine's JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """A finished round: its pilots, the card reached (0–9), each speculator's card (turned
    up once the round is scored) and how it ended (``home``, ``wrong-landing``, ``fall``,
    ``touch``)."""

    pilots: tuple[str, ...]
    reached: int
    speculations: Mapping[str, int]
    ending: str
