"""Small Warehouse in the station: colour-mat warehouses, cards laid square by square.

``record`` (the record), ``presenter`` (the table's view and legend), ``words``,
``camera`` (the mats' reading and the kit's warehouse mats), ``catalogue`` (a copy's
cards), ``scorer`` (``packref score small-warehouse``) and ``advise`` (``packref advise
small-warehouse FILE``); its engine is ``rules.games.small_warehouse``.
"""

from station.games.small_warehouse.record import RECORD

__all__ = ["RECORD"]
