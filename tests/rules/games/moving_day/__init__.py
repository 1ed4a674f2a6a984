"""Moving Day: engine, scoring, placement, views and referee."""
