"""Thresholds of learning a catalogue (kept here, not in the code that uses them)."""

from __future__ import annotations

#: Frames a second of a table camera, for the figures of teaching a deck.
CAMERA_FPS = 10.0
#: A progress line on stderr every this many frames while nothing else happens.
PROGRESS_EVERY = 50
