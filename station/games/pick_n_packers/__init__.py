"""Pick 'n Packers in the station: the shop grid under the camera, the drone on its sensors.

``record`` (the record), ``presenter`` (the table's view and legend), ``words``,
``camera`` (the shop grid's reading and the kit's shop grid), ``catalogue`` (a copy's
shop cards and presents), ``scorer`` (``packref score pick-n-packers``) and ``demo``
(the demo's pilots and drone scale); its engine is ``rules.games.pick_n_packers``.
"""

from station.games.pick_n_packers.record import RECORD

__all__ = ["RECORD"]
