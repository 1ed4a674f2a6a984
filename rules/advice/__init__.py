"""The advisor: exact one-move rankings (docs/formats.md §8) and Monte Carlo advice on any
game in progress. Pure: no I/O, no clock (a caller's ``stop`` callback ends the search),
no global randomness (every search takes its own ``random.Random``)."""
