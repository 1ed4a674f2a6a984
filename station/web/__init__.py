"""The dashboard's look: templates and static JS/CSS (views are made in ``station.games``)."""
