"""Tests of each game's package, rules/games/<game>/."""
