"""Moving Day in the station: a set of vehicle mats per player, tagged boxes loaded onto them.

``record`` (the record), ``presenter`` (the table's view and legend), ``words``,
``camera`` (the mats' reading and the kit's mats), ``catalogue`` (a copy's boxes) and
``scorer`` (``packref score moving-day``); its engine is ``rules.games.moving_day``.
"""

from station.games.moving_day.record import RECORD

__all__ = ["RECORD"]
