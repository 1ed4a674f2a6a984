"""The station as an appliance: a Raspberry Pi that runs packref on its own.

- :mod:`station.appliance.units` — the systemd units (the station, the kiosk) and
  ``packref service install``;
- :mod:`station.appliance.station_file` — ``DATA/station.toml``: cameras and boards;
- :mod:`station.appliance.doctor` — ``packref doctor`` and the health page;
- :mod:`station.appliance.archive` — the frames behind rulings, and a game's ZIP;
- :mod:`station.appliance.ownership` — one process owns each camera;
- :mod:`station.appliance.kiosk` — the projector view in Chromium, kept alive;
- :mod:`station.appliance.setup` — these put together for one data directory.

Its thresholds are in :mod:`station.appliance.config`.
"""
