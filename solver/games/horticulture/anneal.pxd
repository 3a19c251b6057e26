# Cython declarations for the compiled copy of anneal.py (solver/core/compiled.py); the .py stays the
# program that runs in pure mode, and with these the copy evaluates the same games in the same order.
#
# Every table and state array is an array('q') (C long long); every value in them and every local
# declared here is a small count, index, kind, evaluation count or point total (a sheet of a few dozen
# squares, two plants a day), far from overflow. The window box's kind set is a bit mask of at most 64 kinds.
# The helpers take raw pointers (`long long *`, made by `_ptr`) since 6 Dec 21:20: a memoryview argument was a struct of
# about 200 bytes copied into every call (a quarter of a run's time, `perf`), 1.5 -> 2.4 M evaluations a second.
# Before, the hot helpers took few arrays for that reason (`_legal_near` writes the per-plant rule out rather than
# call `_slot_ok` per plant). Measured 6 Dec: 1.4 -> 1.8 M evaluations a second (1.25-1.3x paired) with the moves worked
# out near their squares (`_run`'s `incremental`); declaring the small helpers `inline` made no difference beyond
# the noise.
# Since 6 Dec 19:10 `_run` steps the caller's Mersenne Twister itself (`_random`, `_twist` on the state array `mt`)
# and calls C's exp; the array helpers are compiled without bounds or negative-index checks (decorators in
# anneal.py, which says why that is safe). The MT constants are C globals here (a literal above 2^31 would be a
# Python integer in Cython's arithmetic). Measured 6 Dec (5 games x 3 seeds, 1 M evaluations each, the same games
# as before): 1.85 M evaluations a second before; 2.3 M with the twister stepped in C, C's exp and the checks off;
# 2.5 M with the twister's regeneration written as CPython's (no modulo). A run drawing from an xorshift32 instead
# reached 2.8-3.0 M, but on other games, and the same 60 seeds at 5 s scored no better (5245 / 5403 against
# 5250 / 5406), so the extra evaluations bought nothing (correlated successive draws are a likely cause, not
# checked); it was dropped, and so was a buffer of 256 numbers drawn ahead (no faster).
cimport cython

cdef long long *_ptr(long long[::1] v) noexcept

@cython.locals(j=cython.longlong, y=cython.longlong, t=cython.longlong)
cdef bint _base(long long * free, long long * tc, long long * at, long long x, long long d) except -1

@cython.locals(x=cython.longlong, d=cython.longlong, y=cython.longlong, j=cython.longlong)
cdef bint _slot_ok(long long * loc, long long * at, long long * free, long long * tc,
                   long long s) except -1

@cython.locals(win=cython.longlong, seen=cython.ulonglong, count=cython.longlong, s=cython.longlong,
               bit=cython.ulonglong)
cdef bint _window_ok(long long * loc, long long * kind, long long slots, long long nslot) except -1

@cython.locals(s=cython.longlong)
cdef bint _legal(long long * loc, long long * at, long long * kind, long long * free, long long * tc,
                 long long slots, long long nslot) except -1

@cython.locals(many=cython.longlong, e=cython.longlong, z=cython.longlong, j=cython.longlong, w=cython.longlong,
               u=cython.longlong, i=cython.longlong, q=cython.longlong, d=cython.longlong, p=cython.longlong,
               near=cython.bint, stands=cython.bint)
cdef bint _legal_near(long long * loc, long long * at, long long * free, long long * tc,
                      long long * scratch,
                      long long s, long long t, long long x, long long y) except -1

@cython.locals(win=cython.longlong, count=cython.longlong, s=cython.longlong, total=cython.longlong)
cdef long long _window(long long * loc, long long window_points, long long window_bonus,
                       long long slots, long long nslot) except -1

cdef long long _points(long long * ck, long long * loc, long long * lk, long long * path,
                       long long * border, long long * gl, long long * minimum, long long * mark,
                       long long * stack, long long * squares, long long gen, long long pb, long long pp,
                       long long c1, long long c2, long long per, long long window_points, long long window_bonus,
                       long long slots, long long n, long long nslot) except -1

@cython.locals(i=cython.longlong, total=cython.longlong, x=cython.longlong, k=cython.longlong, j=cython.longlong,
               z=cython.longlong, top=cython.longlong, size=cython.longlong, gnomed=cython.bint, y=cython.longlong,
               m=cython.longlong)
cdef long long _scored(long long * ck, long long * lk, long long * path, long long * border,
                       long long * gl, long long * minimum, long long * mark, long long * stack,
                       long long * squares, long long many, long long gen, long long pb, long long pp,
                       long long c1, long long c2, long long per) except -1

@cython.locals(old=cython.longlong)
cdef int _place(long long * loc, long long * ck, long long * at, long long * kind, long long s,
                long long x) except -1

@cython.locals(a=cython.longlong, b=cython.longlong)
cdef int _swap(long long * loc, long long * ck, long long * at, long long * kind, long long s,
               long long t) except -1

@cython.locals(x=cython.longlong)
cdef int _set_kind(long long * loc, long long * ck, long long * kind, long long s,
                          long long k) except -1

@cython.locals(g=cython.longlong, j=cython.longlong, y=cython.longlong, near=cython.longlong, i=cython.longlong,
               link=cython.longlong)
cdef int _gnome_tables(long long * free, long long * gl, long long * path, long long * tc,
                       long long * lk,
                       long long old, long long new) except -1

@cython.locals(win=cython.longlong, move_place=cython.longlong, move_card=cython.longlong, n=cython.longlong,
               move_near=cython.longlong, nk=cython.longlong, slots=cython.longlong, gnome=cython.longlong,
               free="long long *", tc="long long *", lk="long long *", path="long long *",
               border="long long *", gl="long long *", minimum="long long *", mark="long long *",
               stack="long long *", near="long long *", cand="long long *", check="long long *",
               squares="long long *", phase=cython.longlong, many=cython.longlong, e=cython.longlong,
               z=cython.longlong, j=cython.longlong, w=cython.longlong, seen=cython.bint, part=cython.longlong,
               aimed=cython.bint, sx=cython.longlong, sy=cython.longlong, wcount=cython.bint, wkinds=cython.bint,
               before=cython.longlong, fixed="long long *", nopt="long long *", optk="long long *",
               pb=cython.longlong, pp=cython.longlong, c1=cython.longlong, c2=cython.longlong, per=cython.longlong,
               window_points=cython.longlong, window_bonus=cython.longlong, nslot=cython.longlong,
               nmov=cython.longlong, flippable=cython.longlong, d=cython.longlong, days=cython.longlong,
               best=cython.longlong, gen=cython.longlong, used=cython.longlong, s=cython.longlong, x=cython.longlong,
               length=cython.longlong, cool=cython.double, temp=cython.double, u=cython.double, r=cython.longlong,
               move=cython.longlong, a=cython.longlong, b=cython.longlong, c=cython.longlong, old=cython.longlong,
               was0=cython.longlong, was1=cython.longlong, target=cython.longlong, inside=cython.longlong,
               pick=cython.longlong, ka=cython.longlong, kb=cython.longlong, k=cython.longlong, ok=cython.bint,
               value=cython.longlong, delta=cython.longlong, i=cython.longlong, gnome_ok="long long *",
               moves=cython.longlong, free_plan=cython.bint, best_gnome=cython.longlong, best_pb=cython.longlong,
               best_pp=cython.longlong, best_c1=cython.longlong, best_c2=cython.longlong)
cdef long long _run(object board, long long * loc, long long * ck, long long * at, long long * kind,
                    long long * choice, long long * best_loc, long long * best_kind,
                    long long * best_choice,
                    long long * movable, long long * mt, long long evals, long long per_run, long long current,
                    long long ceiling, object stop, long long * out, bint incremental, long long nslot,
                    long long nmov) except -1

cdef int _do(long long * loc, long long * ck, long long * at, long long * kind, long long * choice, long long move,
             long long a, long long b, long long target, long long ka, long long kb, long long k) except -1

cdef int _undo(long long * loc, long long * ck, long long * at, long long * kind, long long * choice,
               long long move, long long a, long long b, long long old, long long was0, long long was1) except -1

cdef long long MT_N, MT_M, MT_A, MT_UPPER, MT_LOWER, MT_B, MT_C

@cython.locals(k=cython.longlong, y=cython.longlong, m=cython.longlong)
cdef void _twist(long long * mt) noexcept

@cython.locals(i=cython.longlong, y=cython.longlong, a=cython.longlong)
cdef double _random(long long * mt) noexcept
