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
# Since 6 Dec 21:38 the helpers take raw pointers (`unsigned long long *` / `long long *`, made by `_words` /
# `_ptr`), not memoryview structs copied into every call: about 1.3x, the same gardens (anneal.py).
cimport cython

cdef long long *_ptr(long long[::1] v) noexcept
cdef unsigned long long *_words(unsigned long long[::1] v) noexcept

@cython.locals(m64=cython.ulonglong, c1=cython.ulonglong, c2=cython.ulonglong, c4=cython.ulonglong, h=cython.ulonglong)
cdef unsigned long long _popcount(unsigned long long x)

@cython.locals(j=cython.int, total=cython.int)
cdef int _count(unsigned long long * words, int base, int k) except -1

@cython.locals(m64=cython.ulonglong, lift=cython.int, row=cython.ulonglong, j=cython.int, left=cython.int,
               best=cython.int, first=cython.int, changed=cython.bint, x=cython.ulonglong, y=cython.ulonglong,
               size=cython.int)
cdef int _largest(unsigned long long * acc, int base, int k, int width, int rows, int floor,
                  unsigned long long * mask, unsigned long long * group, unsigned long long * grown) except -1

@cython.locals(t=cython.int, found=cython.int, pick=cython.int, c=cython.longlong, j=cython.int, size=cython.int,
               total=cython.int)
cdef int _top(unsigned long long * acc, int types, int k, int width, int rows, int take, long long * counts,
              long long * sizes, unsigned long long * mask, unsigned long long * group,
              unsigned long long * grown) except -1

@cython.locals(j=cython.int, i=cython.int, a=cython.longlong, touch=cython.bint, f=cython.ulonglong)
cdef bint _legal(unsigned long long * foot, unsigned long long * ring, long long * at, int n, int k,
                 unsigned long long * taken) except -1

@cython.locals(j=cython.int, total=cython.int, done=cython.int, c=cython.int, i=cython.int, o=cython.longlong,
               value=cython.int, block=cython.int)
cdef int _points(unsigned long long * masks, long long * offset, long long * uptos, long long * takes,
                 int scorings, int n, int types, int k, int width, int rows, int first, unsigned long long * acc,
                 long long * counts, long long * sizes, unsigned long long * mask, unsigned long long * group,
                 unsigned long long * grown, long long * out) except -1

@cython.locals(i=cython.int, lo_x=cython.longlong, hi_x=cython.longlong, lo_y=cython.longlong, hi_y=cython.longlong,
               dx=cython.longlong, dy=cython.longlong)
cdef int _recentre(long long * xs, long long * ys, int n, int board) except -1

cdef long long _offset(long long i, long long r, long long a, long long side, long long block)

cdef int _code(long long * xs, long long * ys, long long * rs, long long * at, long long * off, int i,
               int side, int block) except -1

@cython.locals(n=cython.int, board=cython.int, k=cython.int, block=cython.int, side=cython.int,
               foot="unsigned long long *", ring="unsigned long long *", masks="unsigned long long *",
               taken="unsigned long long *", width=cython.int, rows=cython.int, types=cython.int,
               cut=cython.int, acc="unsigned long long *", counts="long long *", mask="unsigned long long *",
               group="unsigned long long *", grown="unsigned long long *", first_out="long long *",
               at="long long *", off="long long *", nat="long long *", noff="long long *",
               nx="long long *", ny="long long *", nr="long long *", i=cython.int, j=cython.int,
               c=cython.int, q=cython.int, p=cython.int, t=cython.longlong, x=cython.longlong, y=cython.longlong,
               where=cython.int, shift=cython.int, low=cython.int, high=cython.int, current=cython.int,
               current_first=cython.int, best=cython.int, done=cython.longlong, tries=cython.longlong,
               accepted=cython.longlong, value=cython.int, kind=cython.double, ratio=cython.double,
               rotate=cython.double, swap=cython.double, t_start=cython.double, uptos="long long *",
               takes="long long *", scorings=cython.int, sizes="long long *",
               u=cython.double, accept=cython.bint)
cdef long long _run(object g, long long * xs, long long * ys, long long * rs, long long * turns,
                    long long * counts_of_turns, object draw, long long evals, long long limit, long long ceiling,
                    object stop, int check, long long * bx, long long * by, long long * br,
                    long long * out, int lo) except -1
