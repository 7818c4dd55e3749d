/* The gcc-compiled half of the ABI interop test (see abi_common.h). */
#include <stdarg.h>
#include "abi_common.h"

#define DEF_G(T) \
    DEFINE(T, g) \
    long g_callback_##T(long (*f)(int, struct T, double), int seed) { \
        struct T x; \
        fill_##T(&x, seed); \
        return f(seed, x, 0.5 + seed); \
    } \
    long g_call_ret_##T(int seed) { struct T x = p_ret_##T(seed); return check_##T(&x); }
ABI_STRUCTS(DEF_G)

long g_scalars(char a, unsigned char b, short c, unsigned short d, int e, unsigned f, long g, unsigned long h,
               float i, double j, long double k, __int128 l, unsigned __int128 m, float n, double o,
               double p1, double p2, double p3, double p4, double p5, double p6, long double q, char r, __int128 s) {
    return scalars_check(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p1, p2, p3, p4, p5, p6, q, r, s);
}

long g_call_p_scalars(void) {
    return p_scalars(-5, 250, -30000, 60000, -7, 4000000000u, -9, 10, 1.5f, 2.25, 3.125L, ((__int128)-2 << 64) | 3,
                     ((unsigned __int128)5 << 64) | 6, 0.25f, 0.5, 1, 2, 3, 4, 5, 6, 7.5L, 'x', -((__int128)1 << 100));
}

DEFINE_RETS(g)

long g_call_p_rets(int x) {
    __int128 q = p_ret_i128(x);
    return p_ret_char(x) + p_ret_ushort(x) + (long)(p_ret_float(x) * 4) + (long)(p_ret_double(x) * 8) +
           (long)(p_ret_ldouble(x) * 16) + (long)q + (long)(q >> 64);
}

long g_vsum(const char *fmt, ...) { VSUM_BODY }

long g_call_p_vsum(void) {
    int k = 42;
    struct D2 s; fill_D2(&s, 3);
    struct Big b; fill_Big(&b, 4);
    struct F2 f; fill_F2(&f, 5);
    struct ID id; fill_ID(&id, 6);
    struct Mix24 m; fill_Mix24(&m, 7);
    return p_vsum("ildLqpSBFIMdddddddddlllllllC", 1, 2L, 3.5, 4.25L, (__int128)-5, &k, s, b, f, id, m, 1., 2., 3., 4., 5.,
                  6., 7., 8., 9., 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L);
}

#define DEF_COMPLEX_G(N, T) \
    DEFINE_COMPLEX_SIDE(N, T, g) \
    long g_call_p_cret_##N(int seed) { _Complex T z = p_cret_##N(seed); return CSCORE(z); } \
    long g_call_p_ctake_##N(int seed) { \
        _Complex T z = g_cret_##N(seed), w = g_cret_##N(seed + 1); \
        return p_ctake_##N(seed, z, 0.25 * seed, w, z, w, z, w, z, w, z); \
    }
ABI_COMPLEX(DEF_COMPLEX_G)
