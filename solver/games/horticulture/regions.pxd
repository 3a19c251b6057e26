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
cpdef list _step(list keys, dict index, long long in_w, long long[:] prev, long long nprev, long long[:] out_src,
                 long long out_w, long long[:] allowed, long long nallowed, long long[:] mins,
                 long long border_kind, long long path_kind, long long c1, long long c2, long long per,
                 long long onb, long long ntp, long long ing, int[:] src, int[:] dst, signed char[:] kinds_out,
                 signed char[:] points_out, long long at, long long[:] kinds_, long long[:] labels_, long long[:] needs_,
                 long long[:] sizes_, long long[:] gn_, long long[:] canon, long long[:] merged)

@cython.locals(n=cython.longlong, i=cython.longlong, base_in=cython.longlong, base_out=cython.longlong,
               j=cython.longlong, v=cython.longlong, d=cython.longlong, neg=cython.longlong)
cpdef long long _best(long long nsteps, long long[:] step_off, long long[:] state_off, int[:] src, int[:] dst,
                      signed char[:] kinds, signed char[:] points, long long[:] lam, long long scale,
                      long long[:] val, long long[:] arg)
