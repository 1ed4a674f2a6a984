"""The channel the stations of one PostgreSQL hub announce changes on.

Triggers made by the schema's first migration
(``station/store/migrations/versions/0001_initial.py``) announce every stored event and
every new table on it (as JSON naming the writer); :mod:`station.store.notify` listens.
"""

from __future__ import annotations

CHANNEL = "packref_hub"
