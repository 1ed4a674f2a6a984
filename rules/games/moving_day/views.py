"""What a Moving Day table shows, as typed read-only values for presenters.

:class:`~rules.games.moving_day.engine.MovingDayState` hands these out
(:meth:`~rules.games.moving_day.engine.MovingDayState.box_facts`,
:meth:`~rules.games.moving_day.engine.MovingDayState.facts_of_box`,
:meth:`~rules.games.moving_day.engine.MovingDayState.vehicles`), so that a presenter
never indexes the engine's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BoxFacts:
    """A box of the copy: its type and colour, whether it is fragile, its weight (1–7) and
    its weight symbols (``points``)."""

    type: str
    colour: str
    fragile: bool
    weight: int
    points: int


@dataclass(frozen=True, slots=True)
class VehicleView:
    """One of a player's vehicles as it stands: ``layout`` rows (``.`` a box space, ``#``
    none), the box id on each space (None: empty) and the helper cards seated in it."""

    name: str
    layout: tuple[str, ...]
    grid: tuple[tuple[str | None, ...], ...]
    helpers: tuple[str, ...]
