"""The dashboard's look: templates, static JS/CSS, and per-game drawing views."""
