"""Station validation tooling: rendered teaching sessions of ``packref catalogue learn``
(:mod:`devkit.station.rehearsal`)."""
