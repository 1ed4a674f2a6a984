"""Pick 'n Packers: engine, scoring, views and referee."""
