/* The phicc-compiled half of the ABI interop test: calls into gcc-compiled
 * code and is called back, for structs of every classification (by value
 * and returned), scalars of every class, and variadic functions, and checks
 * every value (see abi_common.h). Prints the number of checks; exits 1 on
 * any failure. */
#include <stdarg.h>
#include <stdio.h>
#include "abi_common.h"

#define DEF_P(T) DEFINE(T, p)
ABI_STRUCTS(DEF_P)

long p_scalars(char a, unsigned char b, short c, unsigned short d, int e, unsigned f, long g, unsigned long h,
               float i, double j, long double k, __int128 l, unsigned __int128 m, float n, double o,
               double p1, double p2, double p3, double p4, double p5, double p6, long double q, char r, __int128 s) {
    return scalars_check(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p1, p2, p3, p4, p5, p6, q, r, s);
}

DEFINE_RETS(p)

long p_vsum(const char *fmt, ...) { VSUM_BODY }

#define DEF_COMPLEX_P(N, T) DEFINE_COMPLEX_SIDE(N, T, p)
ABI_COMPLEX(DEF_COMPLEX_P)

static int checks, failures;
#define CHECK(expected, actual)                                                                     \
    do {                                                                                            \
        long e_ = (expected), a_ = (actual);                                                        \
        if (e_ != a_) {                                                                             \
            printf("%s:%d: %s: expected %ld, got %ld\n", __FILE__, __LINE__, #actual, e_, a_);      \
            failures++;                                                                             \
        }                                                                                           \
        checks++;                                                                                   \
    } while (0)

#define TEST_STRUCT(T)                                                                              \
    for (int s = 1; s < 4; s++) {                                                                   \
        struct T v;                                                                                 \
        fill_##T(&v, s);                                                                            \
        long c = check_##T(&v);                                                                     \
        struct T r = g_ret_##T(s);                                                                  \
        CHECK(c, check_##T(&r));                                                                    \
        CHECK(c + s + 2, g_take_##T(s, v, 2.5));                                                    \
        CHECK(c + s + (long)(0.5 + s), g_callback_##T(p_take_##T, s));                              \
        CHECK(c, g_call_ret_##T(s));                                                                \
        CHECK(36 * c, g_take8_##T(v, v, v, v, v, v, v, v));                                         \
        CHECK(36 * c, p_take8_##T(v, v, v, v, v, v, v, v));                                         \
        CHECK(c, check_##T(&v)); /* the callee's copies did not touch ours */                      \
    }

/* Complex values both ways: returned, passed with registers exhausted. */
#define TEST_COMPLEX(N, T)                                                                          \
    for (int s = 1; s < 4; s++) {                                                                   \
        _Complex T z = g_cret_##N(s), w = p_cret_##N(s), z1 = g_cret_##N(s + 1);                   \
        CHECK(3L * (s + 1) - 14L * s, CSCORE(z));                                                   \
        CHECK(CSCORE(w), CSCORE(z));                                                                \
        CHECK(CSCORE(w), g_call_p_cret_##N(s));                                                     \
        long want = p_ctake_##N(s, z, 0.25 * s, z1, z, z1, z, z1, z, z1, z);                        \
        CHECK(want, g_ctake_##N(s, z, 0.25 * s, z1, z, z1, z, z1, z, z1, z));                        \
        CHECK(want, g_call_p_ctake_##N(s));                                                         \
    }

int main(void) {
    ABI_STRUCTS(TEST_STRUCT)
    ABI_COMPLEX(TEST_COMPLEX)

    CHECK(scalars_check(-5, 250, -30000, 60000, -7, 4000000000u, -9, 10, 1.5f, 2.25, 3.125L, ((__int128)-2 << 64) | 3,
                        ((unsigned __int128)5 << 64) | 6, 0.25f, 0.5, 1, 2, 3, 4, 5, 6, 7.5L, 'x', -((__int128)1 << 100)),
          g_call_p_scalars());
    CHECK(scalars_check(1, 2, 3, 4, 5, 6, 7, 8, 9.5f, 10.5, 11.5L, 12, 13, 14.5f, 15.5, 16, 17, 18, 19, 20, 21, 22.5L, 23, 24),
          g_scalars(1, 2, 3, 4, 5, 6, 7, 8, 9.5f, 10.5, 11.5L, 12, 13, 14.5f, 15.5, 16, 17, 18, 19, 20, 21, 22.5L, 23, 24));

    for (int x = -3; x < 4; x++) {
        CHECK(p_ret_char(x), g_ret_char(x));
        CHECK(p_ret_ushort(x), g_ret_ushort(x));
        CHECK((long)(p_ret_float(x) * 4), (long)(g_ret_float(x) * 4));
        CHECK((long)(p_ret_double(x) * 8), (long)(g_ret_double(x) * 8));
        CHECK((long)(p_ret_ldouble(x) * 16), (long)(g_ret_ldouble(x) * 16));
        CHECK((long)(p_ret_i128(x) >> 64), (long)(g_ret_i128(x) >> 64));
        CHECK((long)p_ret_i128(x), (long)g_ret_i128(x));
        __int128 q = g_ret_i128(x);
        CHECK(g_ret_char(x) + g_ret_ushort(x) + (long)(g_ret_float(x) * 4) + (long)(g_ret_double(x) * 8) +
                  (long)(g_ret_ldouble(x) * 16) + (long)q + (long)(q >> 64),
              g_call_p_rets(x));
    }

    /* Variadic, both directions. The first value is worked out by hand. */
    CHECK(365, g_vsum("ild", 1, 2L, 3.5));
    CHECK(365, p_vsum("ild", 1, 2L, 3.5));
    int k = 42;
    struct D2 s; fill_D2(&s, 3);
    struct Big b; fill_Big(&b, 4);
    struct F2 f; fill_F2(&f, 5);
    struct ID id; fill_ID(&id, 6);
    struct Mix24 m; fill_Mix24(&m, 7);
    long want = g_vsum("ildLqpSBFIMdddddddddlllllllC", 1, 2L, 3.5, 4.25L, (__int128)-5, &k, s, b, f, id, m, 1., 2., 3.,
                       4., 5., 6., 7., 8., 9., 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L);
    CHECK(want, p_vsum("ildLqpSBFIMdddddddddlllllllC", 1, 2L, 3.5, 4.25L, (__int128)-5, &k, s, b, f, id, m, 1., 2., 3.,
                       4., 5., 6., 7., 8., 9., 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L));
    CHECK(want, g_call_p_vsum());
    CHECK(g_vsum("SSSSSFFFFFIIIIdddddddd", s, s, s, s, s, f, f, f, f, f, id, id, id, id, 1., 2., 3., 4., 5., 6., 7., 8.),
          p_vsum("SSSSSFFFFFIIIIdddddddd", s, s, s, s, s, f, f, f, f, f, id, id, id, id, 1., 2., 3., 4., 5., 6., 7., 8.));

    /* A 16-byte aligned struct: an even register pair on AArch64 (x1 and x5 skipped). */
    struct Q q1, q2; fill_Q(&q1, 8); fill_Q(&q2, 9);
    CHECK(g_vsum("QiQ", q1, 10, q2), p_vsum("QiQ", q1, 10, q2));
    CHECK(check_Q(&q1) * 9 + 30 + check_Q(&q2), p_vsum("QiQ", q1, 10, q2));

    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
