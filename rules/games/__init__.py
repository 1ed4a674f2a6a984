"""One module per game, each in the same order: constants, game, state, helpers.

Each module calls :func:`rules.registry.register` at import time.
"""
