"""Horticulture (roll-and-write garden game): reference data, pure rules and scoring, CP-SAT optimiser."""

from solver.core import compiled as _compiled

_compiled.install()  # the annealing search loads its compiled copy when it is up to date (solver/core/compiled.py)
