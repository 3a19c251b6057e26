# Cython declarations for the compiled copy of refute.py (solver/core/compiled.py); the .py stays the
# program that runs in pure mode, and with these the copy visits the same nodes in the same order.
#
# Only module-level helpers are declared (the search's closures inside `arrangeable` cannot be);
# the module's flags and constants (CLOSING, BLOCKING, ..., SPAN, BIAS) stay ordinary Python
# globals. Why the C integer types fit:
# - long long for int fields and offsets (`_cell`): arrangeable refuses tile counts for which a
#   field's (x + BIAS) or (y + BIAS) could leave [0, SPAN), so every field is below SPAN ** 2 = 2 ** 32,
#   an offset or neighbour step is below 2 * SPAN in magnitude, and sums of a field and an offset
#   stay far inside 64 bits.
# - int for counts, distances, spare, budgets and indices: at most the fields of a requirement
#   (4 per tile) or the number of areas, far below 2 ** 31; tiles_between's arguments are anchor
#   differences (at most FAR * (tiles + 1) + a few fields).
# Division and modulo keep Python semantics (no cdivision) and indexing keeps bounds checks.
cimport cython

@cython.locals(n=cython.int, left=cython.int, reach=cython.int, k=cython.int, length=cython.int,
               c=cython.longlong, step=cython.longlong)
cdef list _path_groups(list areas, dict label, dict occ, set excluded, int spare)

cdef int _find(list parent, int k) except -1

@cython.locals(a=cython.int, b=cython.int)
cdef int _link(list parent, int a, int b) except -1

@cython.locals(off=cython.longlong)
cdef bint _clear(tuple chk, long long a, dict occ) except -1

@cython.locals(p=cython.longlong, a=cython.longlong, far=cython.int, off=cython.longlong)
cdef int _fewest_far(object places, long long ox, list check, int best, tuple chk, dict occ) except -1

@cython.locals(c=cython.longlong, step=cython.longlong, length=cython.int)
cdef dict _reach(list group, dict occ, set ex, int spare)

@cython.locals(c=cython.longlong, step=cython.longlong)
cdef set _corridor(list areas, dict occ, set ex, dict label, int steps)

@cython.locals(c=cython.longlong, step=cython.longlong)
cdef set _open_fields(set comp, dict occ, set ex, set nof)

cpdef int tiles_between(int dx, int dy) except? -2
