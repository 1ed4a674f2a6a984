"""One package per game: its engine, scoring, referee and own helpers
(``rules/games/<game>/``).

Each package registers its game with :func:`rules.registry.register` when imported.
"""
