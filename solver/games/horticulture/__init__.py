"""Horticulture (roll-and-write garden game): reference data, pure rules and scoring, CP-SAT optimiser."""
