"""Removal: engine, truck, deal, scoring, views and referee."""
