"""``packref demo``'s generators: recorded games, camera replays, and their playing through
the live loop (:mod:`station.live`, which never imports this package)."""
