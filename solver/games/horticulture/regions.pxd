# Cython declarations for the compiled copy of regions.py (solver/core/compiled.py); the .py stays the
# program that runs in pure mode, and with these the copy builds the same layers and finds the same plantings.
#
# Packed states fit 55 bits (regions.MAX_FRONT); values are point totals times a scale of 100 minus prices of
# at most a few thousand per plant over a few dozen squares, far from overflow; every other local is a small
# index, kind, count or point total.
cimport cython

@cython.locals(s_i=cython.longlong, t_i=cython.longlong, t=cython.longlong, s=cython.longlong,
               v=cython.longlong, lab=cython.longlong, c=cython.longlong, pts=cython.longlong,
               found=cython.longlong, p=cython.longlong, m=cython.longlong, size=cython.longlong,
               g=cython.longlong, nm=cython.longlong, seen=cython.longlong, q=cython.longlong,
               out=cython.longlong, nl=cython.longlong, comps=cython.longlong, o=cython.longlong,
               k=cython.longlong, w=cython.longlong, key=cython.longlong, jj=cython.longlong)
cpdef list _step(list keys, dict index, long long in_w, long long[::1] prev, long long nprev, long long[::1] out_src,
                 long long out_w, long long[::1] allowed, long long nallowed, long long[::1] mins,
                 long long border_kind, long long path_kind, long long c1, long long c2, long long per,
                 long long onb, long long ntp, long long ing, int[::1] src, int[::1] dst,
                 signed char[::1] kinds_out, signed char[::1] points_out, long long at, long long[::1] kinds_,
                 long long[::1] labels_, long long[::1] needs_, long long[::1] sizes_, long long[::1] gn_,
                 long long[::1] canon, long long[::1] merged)

@cython.locals(n=cython.longlong, i=cython.longlong, base_in=cython.longlong, base_out=cython.longlong,
               j=cython.longlong, v=cython.longlong, d=cython.longlong, neg=cython.longlong)
cpdef long long _best(long long nsteps, long long[::1] step_off, long long[::1] state_off, int[::1] src, int[::1] dst,
                      signed char[::1] kinds, signed char[::1] points, long long[::1] lam, long long scale,
                      long long[::1] val, long long[::1] arg)
