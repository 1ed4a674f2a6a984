"""Tournaments: players, rounds, results, standings with tie-breakers, CSV export."""
