"""Removal in the station: a truck frame per player, tagged tiles laid in it.

``record`` (the record), ``presenter`` (the table's view and legend), ``words``,
``camera`` (the mats' reading and the kit's truck frames), ``catalogue`` (a copy's items
and boxes), ``truck`` (the §4 truck document), ``scorer`` (``packref score removal``,
§5), ``advise`` (``packref advise removal FILE``) and ``command`` (``packref removal``);
its engine is ``rules.games.removal``.
"""

from station.games.removal.record import RECORD

__all__ = ["RECORD"]
