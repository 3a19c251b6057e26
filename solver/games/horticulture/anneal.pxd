# Cython declarations for the compiled copy of anneal.py (solver/core/compiled.py); the .py stays the
# program that runs in pure mode, and with these the copy evaluates the same games in the same order.
#
# Every table and state array is an array('q') (C long long); every value in them and every local
# declared here is a small count, index, kind, evaluation count or point total (a sheet of a few dozen
# squares, two plants a day), far from overflow. The window box's kind set is a bit mask of at most 64 kinds.
cimport cython

@cython.locals(j=cython.longlong, y=cython.longlong, t=cython.longlong)
cdef bint _base(long long[:] free, long long[:] tc, long long[:] at, long long x, long long d) except -1

@cython.locals(win=cython.longlong, seen=cython.ulonglong, count=cython.longlong, s=cython.longlong,
               x=cython.longlong, bit=cython.ulonglong, d=cython.longlong, y=cython.longlong, near=cython.bint,
               j=cython.longlong)
cdef bint _legal(long long[:] loc, long long[:] at, long long[:] kind, long long[:] free, long long[:] tc,
                 long long slots) except -1

@cython.locals(win=cython.longlong, count=cython.longlong, s=cython.longlong, total=cython.longlong,
               x=cython.longlong, k=cython.longlong, j=cython.longlong, z=cython.longlong, top=cython.longlong,
               size=cython.longlong, gnomed=cython.bint, y=cython.longlong, m=cython.longlong)
cdef long long _points(long long[:] ck, long long[:] loc, long long[:] lk, long long[:] path, long long[:] border,
                       long long[:] gl, long long[:] minimum, long long[:] mark, long long[:] stack, long long gen,
                       long long pb, long long pp, long long c1, long long c2, long long per,
                       long long window_points, long long window_bonus, long long slots) except -1

@cython.locals(old=cython.longlong)
cdef int _place(long long[:] loc, long long[:] ck, long long[:] at, long long[:] kind, long long s,
                long long x) except -1

@cython.locals(a=cython.longlong, b=cython.longlong)
cdef int _swap(long long[:] loc, long long[:] ck, long long[:] at, long long[:] kind, long long s,
               long long t) except -1

@cython.locals(x=cython.longlong)
cdef int _set_kind(long long[:] loc, long long[:] ck, long long[:] kind, long long s, long long k) except -1

@cython.locals(g=cython.longlong, j=cython.longlong, y=cython.longlong, near=cython.longlong, i=cython.longlong,
               link=cython.longlong)
cdef int _gnome_tables(long long[:] free, long long[:] gl, long long[:] path, long long[:] tc, long long[:] lk,
                       long long old, long long new) except -1

@cython.locals(win=cython.longlong, move_place=cython.longlong, move_card=cython.longlong, n=cython.longlong,
               move_near=cython.longlong,
               nk=cython.longlong, slots=cython.longlong, gnome=cython.longlong, free="long long[:]",
               tc="long long[:]", lk="long long[:]", path="long long[:]", border="long long[:]", gl="long long[:]",
               minimum="long long[:]", mark="long long[:]", stack="long long[:]", near="long long[:]",
               fixed="long long[:]", nopt="long long[:]", optk="long long[:]", pb=cython.longlong, pp=cython.longlong,
               c1=cython.longlong, c2=cython.longlong, per=cython.longlong, window_points=cython.longlong,
               window_bonus=cython.longlong, nslot=cython.longlong, nmov=cython.longlong,
               flippable=cython.longlong, d=cython.longlong, days=cython.longlong, best=cython.longlong,
               gen=cython.longlong, used=cython.longlong, s=cython.longlong, x=cython.longlong,
               length=cython.longlong, cool=cython.double, temp=cython.double, u=cython.double, r=cython.longlong,
               move=cython.longlong, a=cython.longlong, b=cython.longlong, c=cython.longlong, old=cython.longlong,
               was0=cython.longlong, was1=cython.longlong, target=cython.longlong, inside=cython.longlong,
               pick=cython.longlong, ka=cython.longlong, kb=cython.longlong, k=cython.longlong, ok=cython.bint,
               value=cython.longlong, delta=cython.longlong, i=cython.longlong, gnome_ok="long long[:]",
               moves=cython.longlong, free_plan=cython.bint, best_gnome=cython.longlong, best_pb=cython.longlong,
               best_pp=cython.longlong, best_c1=cython.longlong, best_c2=cython.longlong)
cdef long long _run(object board, long long[:] loc, long long[:] ck, long long[:] at, long long[:] kind,
                    long long[:] choice, long long[:] best_loc, long long[:] best_kind, long long[:] best_choice,
                    long long[:] movable, object rnd, long long evals, long long per_run, long long current,
                    long long ceiling, object stop, long long[:] out) except -1
