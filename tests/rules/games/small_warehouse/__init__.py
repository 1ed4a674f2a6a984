"""Small Warehouse: engine, grid, scoring, views and referee."""
