"""Thresholds of learning a catalogue (kept here, not in the code that uses them)."""

from __future__ import annotations

#: Frames a second of a table camera, for the figures of teaching a deck.
CAMERA_FPS = 10.0
#: A progress line on stderr every this many frames while nothing else happens.
PROGRESS_EVERY = 50
#: Largest present mass accepted, in grams (our choice: the rulebook gives no masses; the
#: presents are small wooden or folded paper pieces a toy drone lifts, 2.5–19 g in the
#: default catalogue, and the kit's smallest load cell is 300 g: more is a typo).
MAX_PRESENT_G = 300.0
