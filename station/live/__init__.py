"""The live loop: sources → stable observations → translators → engine → store → broadcast.

A station's tables and what drives them are planned in :mod:`station.live.plan` and
started by :mod:`station.live.runner`.
"""
