# Cython declarations for the compiled copy of refute.py (solver/core/compiled.py); the .py stays the
# program that runs in pure mode, and with these the copy visits the same nodes in the same order.
#
# Only module-level helpers are declared (the search's closures inside `arrangeable` cannot be);
# the module's flags and constants stay ordinary Python globals.
# What pays is the state array (`_state`, a bytearray): `st[j]` with a C index compiles to a C read,
# so the helpers' occupied / excluded / unfillable tests neither hash nor allocate; likewise a
# reach's distances (`_reach`), the placed tiles (`here`) and the stamped scratch planes (1 Dec
# 02:00-03:55: the closures' hot loops moved into the helpers below, same nodes). Why the C
# integer types fit:
# - long long for int fields, offsets, window indices and planes: a field is its index in the
#   search's window (`_cell`, 1 Dec 05:00), below the state array's length.
# - int for counts, distances, spare, budgets and indices: at most the fields of a requirement
#   (4 per tile) or the number of areas, far below 2 ** 31.
# Division keeps Python semantics (no cdivision) and indexing keeps bounds checks.
cimport cython

@cython.locals(n=cython.int, left=cython.int, reach=cython.int, k=cython.int, length=cython.int,
               c=cython.longlong, d=cython.longlong, step=cython.longlong, j=cython.longlong, size=cython.longlong)
cdef list _path_groups(list areas, bytearray st, long long plane, long long w, int spare,
                       bytearray scratch, int gen)

cdef int _find(list parent, int k) except -1

@cython.locals(a=cython.int, b=cython.int)
cdef int _link(list parent, int a, int b) except -1

@cython.locals(off=cython.longlong, j=cython.longlong, p=cython.longlong)
cdef bint _clear(tuple chk, long long a, bytearray st) except -1

@cython.locals(p=cython.longlong, a=cython.longlong, far=cython.int, n=cython.Py_ssize_t, q=cython.Py_ssize_t,
               off=cython.longlong, dist=bytearray)
cdef int _fewest_far(list places, long long ox, list offs, list dists, Py_ssize_t skip, int best, tuple chk,
                     bytearray st) except -1

@cython.locals(p=cython.longlong, a=cython.longlong, ox=cython.longlong, far=cython.int, n=cython.Py_ssize_t,
               q=cython.Py_ssize_t, q0=cython.Py_ssize_t, off=cython.longlong, places=list, dist=bytearray)
cdef int _fewest_far_any(list offs, list fields, list dists, int best, tuple chk, bytearray st, bytearray mark,
                         int gen) except -1

@cython.locals(c=cython.longlong, d=cython.longlong, step=cython.longlong, length=cython.int, j=cython.longlong,
               start=cython.Py_ssize_t, end=cython.Py_ssize_t, k=cython.Py_ssize_t, dist=bytearray, fields=list)
cdef tuple _reach(list group, bytearray st, long long plane, long long w, int spare, long long size)

@cython.locals(c=cython.longlong, d=cython.longlong, step=cython.longlong, j=cython.longlong)
cdef set _corridor(list areas, bytearray st, long long plane, long long w, list label, int steps)


cpdef int tiles_between(int dx, int dy) except? -2

@cython.locals(j=cython.longlong, a=cython.longlong, off=cython.longlong, sl=list, chk=tuple)
cdef bint _fillable(long long f, long long plane, bytearray st, list wit, list slots, bytearray here,
                    list frame) except -1

@cython.locals(count=cython.int, c=cython.longlong, d=cython.longlong, step=cython.longlong, j=cython.longlong,
               first=cython.longlong)
cdef long long _open_count(set comp, bytearray st, long long plane, long long w, int best, list wit,
                           list slots, bytearray here, list frame, bytearray mark, int gen) except? -1

# `rec`'s per-requirement loop (1 Dec 08:15): its counts, bounds and the pick in C ints; `best` starts at
# 1 << 30 (< 2 ** 31); a field (pick_f) is a long long as everywhere.
@cython.locals(total_lost=cython.int, pick_best=cython.int, pick_ri=cython.int, pick_f=cython.longlong,
               pick_spare=cython.int, n=cython.Py_ssize_t, ri=cython.Py_ssize_t,
               plane=cython.longlong, full=cython.int, held=cython.int, spare_r=cython.int, best=cython.int,
               closed_sum=cython.int, closed_max=cython.int, biggest=cython.int, lost_r=cython.int, cap=cython.int,
               spare=cython.int, got=cython.longlong, n_areas=cython.int, size=cython.Py_ssize_t, count=cython.int,
               first=cython.longlong, comp=set, sole_r=dict, counted_r=set, ties=list, n_ties=cython.int,
               tie_first=cython.longlong, tie_comp=set, options=list, sole=list, kept=list, blockers=list,
               growing=list, shut_lb=list, groups=list)
cdef int _bounds(list counts, list planes, list comps, list counted, list label, list witness, list fill_slots,
                 bytearray st, long long w, long long wreach, bytearray here, list frame, bytearray mark,
                 list stamps, bytearray scratch, bint fewest_spare, bint bridge, int bridge_bfs,
                 bint joint, bint closing, bint blocking, int loss, list pick) except? -2

@cython.locals(e=cython.longlong)
cdef int _unmark(list frame, bytearray st) except -1

@cython.locals(budget=cython.int, far=cython.int, k=cython.int, lim=cython.int, off=cython.longlong, d=cython.int,
               dist=bytearray, cluster=tuple, outside=tuple, near=dict, share=dict, g=tuple)
cdef bint _doomed(tuple hold, dict built, list cl, int i, long long a) except -1

@cython.locals(off=cython.longlong, o=cython.int)
cdef bint _touches_earlier(long long a, int i, bytearray st, tuple ring) except -1

@cython.locals(off=cython.longlong, o=cython.int)
cdef bint _stranded(long long a, int i, bytearray st, tuple ring) except -1

@cython.locals(r=cython.longlong, c=cython.longlong, j=cython.int, off=cython.longlong, chk=tuple)
cdef bint _can_touch(long long a, int i, bytearray st, bytearray here, list turns, tuple ring, tuple offs) except -1

@cython.locals(i=cython.int, a=cython.longlong)
cdef bint _order_broken(int n, bytearray here, bytearray early, list at, bytearray st, bint whole, list turns,
                        tuple ring, tuple offs) except -1

@cython.locals(i=cython.int)
cdef bint _untouched(int n, bytearray here, bytearray early, list at, bytearray st, tuple ring) except -1

@cython.locals(n=cython.Py_ssize_t, k=cython.Py_ssize_t, a=cython.Py_ssize_t, b=cython.Py_ssize_t,
               c=cython.longlong, x=cython.longlong, y=cython.longlong, x0=cython.longlong, x1=cython.longlong,
               y0=cython.longlong, y1=cython.longlong, gx=cython.longlong, gy=cython.longlong,
               kb=cython.longlong, r=cython.longlong, ww=cython.longlong,
               grouped=bytearray, group=list, stack=list, bx0=list, bx1=list, by0=list, by1=list)
cpdef list box_components(list areas, int spare, long long w=*)

@cython.locals(g=cython.int)
cdef int _fresh(bytearray buf, list stamps, int k, Py_ssize_t n) except -1

@cython.locals(best=cython.int, t=cython.Py_ssize_t, k=cython.Py_ssize_t, q=cython.Py_ssize_t, size=cython.Py_ssize_t,
               n=cython.Py_ssize_t, offs=list, fields=list, dists=list)
cdef int _far_fields(list pairs, list reaches, int cap, list chks, bytearray st, bytearray mark,
                     list stamps) except -1

@cython.locals(step=cython.longlong, k=cython.Py_ssize_t, near=list, target=set, other=set)
cdef int _join(long long c, int ri, list lab, dict cm, list steps, long long w) except -1

@cython.locals(k=cython.Py_ssize_t, kind=cython.int, ri=cython.Py_ssize_t, lab=list)
cdef int _unjoin(list records, list comps, list label) except -1

@cython.locals(v=cython.int)
cdef list _group_values(int held, list groups)

@cython.locals(low=cython.int, v=cython.int)
cdef int _least(list values, list more) except? -1

cdef bint _any_joined(list groups) except -1

@cython.locals(k=cython.Py_ssize_t)
cdef bint _same_objects(list a, list b) except -1

@cython.locals(u=cython.int, m=cython.int, k=cython.int, q=cython.int, top=cython.int, reached=cython.int,
               a=cython.int, b=cython.int)
cdef bint _prefix_ok(int n, bytearray here, bytearray early, list ax, list ay, list mx, list my, bytearray seen,
                     list stack) except -1
