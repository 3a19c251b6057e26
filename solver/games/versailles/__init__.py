"""Die Gärten von Versailles: placement rules, majorities, scoring and the optimal solo garden."""

from solver.core import compiled as _compiled

_compiled.install()  # the refutation search loads its compiled copy when it is up to date (solver/core/compiled.py)
