# Cython declarations for the compiled copy of anneal.py (solver/core/compiled.py); the .py stays the
# program that runs in pure mode, and with these the copy evaluates the same gardens in the same order.
#
# The planes are 64-bit words (array('Q')), so every helper below works on C unsigned long long words:
# the Python source masks each left shift to 64 bits, which is what C does anyway, and counts bits
# with the same arithmetic (_popcount), so both copies compute the same values. Indices, widths,
# counts and points are small (a board of at most 24 fields a side, 4 turns, a few hundred words).
#
# Since 6 Dec 19:25 the arrays are contiguous ([::1]) and `_run` has typed locals for its random number (`u`) and the
# Metropolis verdict (`accept`); anneal.py turns the helpers' bounds and negative-index checks off and calls C's exp
# (it says why that is safe). 300k -> 380k evaluations a second on five 14-tile sequences, the same gardens.
cimport cython

@cython.locals(m64=cython.ulonglong, c1=cython.ulonglong, c2=cython.ulonglong, c4=cython.ulonglong, h=cython.ulonglong)
cdef unsigned long long _popcount(unsigned long long x)

@cython.locals(j=cython.int, total=cython.int)
cdef int _count(unsigned long long[::1] words, int base, int k) except -1

@cython.locals(m64=cython.ulonglong, lift=cython.int, row=cython.ulonglong, j=cython.int, left=cython.int,
               best=cython.int, first=cython.int, changed=cython.bint, x=cython.ulonglong, y=cython.ulonglong,
               size=cython.int)
cdef int _largest(unsigned long long[::1] acc, int base, int k, int width, int rows, int floor,
                  unsigned long long[::1] mask, unsigned long long[::1] group, unsigned long long[::1] grown) except -1

@cython.locals(t=cython.int, found=cython.int, pick=cython.int, c=cython.longlong, j=cython.int, size=cython.int,
               total=cython.int)
cdef int _top(unsigned long long[::1] acc, int types, int k, int width, int rows, int take, long long[::1] counts,
              long long[::1] sizes, unsigned long long[::1] mask, unsigned long long[::1] group,
              unsigned long long[::1] grown) except -1

@cython.locals(j=cython.int, i=cython.int, a=cython.longlong, touch=cython.bint, f=cython.ulonglong)
cdef bint _legal(unsigned long long[::1] foot, unsigned long long[::1] ring, long long[::1] at, int n, int k,
                 unsigned long long[::1] taken) except -1

@cython.locals(j=cython.int, total=cython.int, done=cython.int, c=cython.int, i=cython.int, o=cython.longlong,
               value=cython.int, block=cython.int)
cdef int _points(unsigned long long[::1] masks, long long[::1] offset, long long[::1] uptos, long long[::1] takes,
                 int scorings, int n, int types, int k, int width, int rows, int first, unsigned long long[::1] acc,
                 long long[::1] counts, long long[::1] sizes, unsigned long long[::1] mask, unsigned long long[::1] group,
                 unsigned long long[::1] grown, long long[::1] out) except -1

@cython.locals(i=cython.int, lo_x=cython.longlong, hi_x=cython.longlong, lo_y=cython.longlong, hi_y=cython.longlong,
               dx=cython.longlong, dy=cython.longlong)
cdef int _recentre(long long[::1] xs, long long[::1] ys, int n, int board) except -1

cdef long long _offset(long long i, long long r, long long a, long long side, long long block)

cdef int _code(long long[::1] xs, long long[::1] ys, long long[::1] rs, long long[::1] at, long long[::1] off, int i,
               int side, int block) except -1

@cython.locals(n=cython.int, board=cython.int, k=cython.int, block=cython.int, side=cython.int,
               foot="unsigned long long[::1]", ring="unsigned long long[::1]", masks="unsigned long long[::1]",
               taken="unsigned long long[::1]", width=cython.int, rows=cython.int, types=cython.int,
               cut=cython.int, acc="unsigned long long[::1]", counts="long long[::1]", mask="unsigned long long[::1]",
               group="unsigned long long[::1]", grown="unsigned long long[::1]", first_out="long long[::1]",
               at="long long[::1]", off="long long[::1]", nat="long long[::1]", noff="long long[::1]",
               nx="long long[::1]", ny="long long[::1]", nr="long long[::1]", i=cython.int, j=cython.int,
               c=cython.int, q=cython.int, p=cython.int, t=cython.longlong, x=cython.longlong, y=cython.longlong,
               where=cython.int, shift=cython.int, low=cython.int, high=cython.int, current=cython.int,
               current_first=cython.int, best=cython.int, done=cython.longlong, tries=cython.longlong,
               accepted=cython.longlong, value=cython.int, kind=cython.double, ratio=cython.double,
               rotate=cython.double, swap=cython.double, t_start=cython.double, uptos="long long[::1]",
               takes="long long[::1]", scorings=cython.int, sizes="long long[::1]",
               u=cython.double, accept=cython.bint)
cdef long long _run(object g, long long[::1] xs, long long[::1] ys, long long[::1] rs, long long[::1] turns,
                    long long[::1] counts_of_turns, object draw, long long evals, long long limit, long long ceiling,
                    object stop, int check, long long[::1] bx, long long[::1] by, long long[::1] br,
                    long long[::1] out, int lo) except -1
