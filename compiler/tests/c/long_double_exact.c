/* Exact long double constants: literals rounded once to the target's long
 * double (x87 80-bit on x86-64, binary128 on AArch64 and RISC-V 64),
 * folding, negation and conversions computed from the exact value, in
 * static initializers and in code. phicc used to build every long double
 * constant from a double, so LDBL_MAX became +inf and
 * gcc.c-torture/execute/ieee/pr36332.c aborted.
 *
 * The expected bits of each check are gcc's, for each format (dumped from
 * gcc -O0 on x86-64 and aarch64-linux-gnu with -DDUMP); the output is the
 * same on every target. Native only: the interpreter computes long double
 * in double (docs/abi.md). */
// modes: native
#include "test.h"

int snprintf(char *s, unsigned long n, const char *fmt, ...);
int strcmp(const char *a, const char *b);
void *memcpy(void *d, const void *s, unsigned long n);

#define X87 (__LDBL_MANT_DIG__ == 64)

/* The bits that hold the value: x87 uses 10 of the 16 bytes. `hi` is the
 * sign and exponent (x87) or the upper 8 bytes (binary128). */
static unsigned long long hi(long double x) {
    unsigned long long h = 0;
    memcpy(&h, (char *)&x + 8, X87 ? 2 : 8);
    return h;
}
static unsigned long long lo(long double x) {
    unsigned long long l;
    memcpy(&l, &x, 8);
    return l;
}

static void check_bits(long double x, unsigned long long h, unsigned long long l, const char *code, int line) {
#ifdef DUMP
    printf("%d %s: 0x%llx, 0x%016llx\n", line, code, hi(x), lo(x));
    return;
#endif
    int ok = hi(x) == h && lo(x) == l;
    printf("%d => %d\n", line, ok);
    if (!ok) {
        printf("%d: %s => 0x%llx 0x%016llx, expected 0x%llx 0x%016llx\n", line, code, hi(x), lo(x), h, l);
        exit(1);
    }
}

static void check_str(const char *got, const char *want, const char *code, int line) {
#ifdef DUMP
    printf("%d %s: \"%s\"\n", line, code, got);
    return;
#endif
    int ok = strcmp(got, want) == 0;
    printf("%d => %d\n", line, ok);
    if (!ok) {
        printf("%d: %s => \"%s\", expected \"%s\"\n", line, code, got, want);
        exit(1);
    }
}

/* BITS(expr, x87 hi, x87 lo, binary128 hi, binary128 lo) */
#if X87
#define BITS(x, xh, xl, qh, ql) check_bits(x, xh, xl, #x, __LINE__)
#define PICK(x87, q) x87
#else
#define BITS(x, xh, xl, qh, ql) check_bits(x, qh, ql, #x, __LINE__)
#define PICK(x87, q) q
#endif

static char buf[128];
#define FMT(fmt, x, x87s, qs) (snprintf(buf, sizeof buf, fmt, x), check_str(buf, PICK(x87s, qs), #x, __LINE__))

/* Static initializers. */
static long double s_max = __LDBL_MAX__;
static long double s_min = __LDBL_MIN__;
static long double s_eps = __LDBL_EPSILON__;
static long double s_true_min = __LDBL_DENORM_MIN__;
static long double s_sub3 = __LDBL_DENORM_MIN__ * 3;
static long double s_11 = 1.1L;
static long double s_03 = 0.1L * 3;
static long double s_third = 1.0L / 3;
static long double s_neg = -1.1L;
static long double s_hex = 0x1.23456789abcdef0123456789abcdp-3L;
static long double s_big = 123456789012345678901234567890.0L;
static long double s_inf = 1e5000L;
static long double s_under = 1e-5000L;
static long double s_nan = 1.0L / 0.0L - 1.0L / 0.0L; /* ieee/fp-cmp-3.c */
static long double s_ull = 18446744073709551615ULL;
static double s_d = (double)1.1L;
static double s_dmax = (double)__LDBL_MAX__;
static float s_f = (float)(1.0000000596046447754L + 4 * __LDBL_EPSILON__);
static long long s_ll = (long long)(1.1L * 1e18L);
static unsigned long long s_u = (unsigned long long)0x1.fffffffffffffffep63L;
static int s_not = !__LDBL_DENORM_MIN__;
static int s_lt = 1.1L < 1.1;
static long double s_arr[] = {1.1L, -0.1L, 1e-4940L, 0x1p-16400L};
static struct {
    char c;
    long double x;
} s_rec = {'a', 0.1L};

static int is_inf(long double ld) { return ld == __builtin_infl(); }
static long double neg(long double x) { return -x; }

volatile long double v_max = __LDBL_MAX__, v_01 = 0.1L, v_3 = 3, v_min = __LDBL_MIN__;

int main(void) {
    /* gcc.c-torture/execute/ieee/pr36332.c */
    ASSERT(0, is_inf(__LDBL_MAX__));
    ASSERT(0, is_inf(v_max));
    ASSERT(1, is_inf(v_max * 2));
    ASSERT(1, __LDBL_MAX__ < __builtin_infl());
    ASSERT(1, -__LDBL_MAX__ > -__builtin_infl());
    ASSERT(1, __LDBL_MAX__ != __builtin_infl());
    ASSERT(1, s_max == v_max);
    ASSERT(1, (double)__LDBL_MAX__ == __builtin_inf());
    ASSERT(1, (double)__LDBL_MIN__ == 0);
    ASSERT(0, !__LDBL_DENORM_MIN__);
    ASSERT(0, s_not);
    ASSERT(2, __LDBL_DENORM_MIN__ ? 2 : 3);
    ASSERT(1, __LDBL_DENORM_MIN__ > 0);
    ASSERT(1, 1.1L < 1.1); /* the double 1.1 is 1.1000000000000000888 */
    ASSERT(1, s_lt);
    ASSERT(1, 1.1L != 1.1);
    ASSERT(1, 0.1L * 3 == v_01 * v_3);
    ASSERT(1, s_03 == v_01 * 3);
    ASSERT(1, __LDBL_MIN__ / 3 == v_min / 3);
    ASSERT(-2, (long long)-2.5L);
    ASSERT(1100000000000000000LL, s_ll);
    ASSERT(1100000000000000000LL, (long long)(1.1L * 1e18L));
    ASSERT(1, s_u == 18446744073709551615ULL);
    ASSERT(1, (unsigned long long)0x1.fffffffffffffffep63L == 18446744073709551615ULL);
    ASSERT(1, s_ull == 18446744073709551615ULL);
    ASSERT(1, s_d == 1.1);
    ASSERT(1, (double)1.1L == 1.1);
    ASSERT(1, s_dmax == __builtin_inf());
    ASSERT(1, s_f == 0x1.000002p+0f);
    ASSERT(1, (float)(1.0000000596046447754L + 4 * __LDBL_EPSILON__) == 0x1.000002p+0f);
    ASSERT(1, 1.00000005960464477539062500000001f == 0x1.000002p+0f);
    ASSERT(1, s_inf == __builtin_infl());
    ASSERT(1, s_under == 0 && !__builtin_signbit(s_under));
    ASSERT(1, s_nan != s_nan);

    /* Bits in static data. */
    BITS(s_max, 0x7ffe, 0xffffffffffffffff, 0x7ffeffffffffffff, 0xffffffffffffffff);
    BITS(s_min, 0x1, 0x8000000000000000, 0x1000000000000, 0x0000000000000000);
    BITS(s_eps, 0x3fc0, 0x8000000000000000, 0x3f8f000000000000, 0x0000000000000000);
    BITS(s_true_min, 0x0, 0x0000000000000001, 0x0, 0x0000000000000001);
    BITS(s_sub3, 0x0, 0x0000000000000003, 0x0, 0x0000000000000003);
    BITS(s_11, 0x3fff, 0x8ccccccccccccccd, 0x3fff199999999999, 0x999999999999999a);
    BITS(s_03, 0x3ffd, 0x999999999999999a, 0x3ffd333333333333, 0x3333333333333334);
    BITS(s_third, 0x3ffd, 0xaaaaaaaaaaaaaaab, 0x3ffd555555555555, 0x5555555555555555);
    BITS(s_neg, 0xbfff, 0x8ccccccccccccccd, 0xbfff199999999999, 0x999999999999999a);
    BITS(s_hex, 0x3ffc, 0x91a2b3c4d5e6f781, 0x3ffc23456789abcd, 0xef0123456789abcd);
    BITS(s_big, 0x405f, 0xc77487fb61b9f077, 0x405f8ee90ff6c373, 0xe0ee4e3f0ad20000);
    BITS(s_ull, 0x403e, 0xffffffffffffffff, 0x403effffffffffff, 0xfffe000000000000);
    BITS(s_arr[0], 0x3fff, 0x8ccccccccccccccd, 0x3fff199999999999, 0x999999999999999a);
    BITS(s_arr[1], 0xbffb, 0xcccccccccccccccd, 0xbffb999999999999, 0x999999999999999a);
    BITS(s_arr[2], 0x0, 0x0000000663278e62, 0xcc64f, 0x1cc4376f7da08f39);
    BITS(s_arr[3], 0x0, 0x0000200000000000, 0x40000000, 0x0000000000000000);
    BITS(s_nan, 0x7fff, 0xc000000000000000, 0x7fff800000000000, 0x0000000000000000);
    BITS(s_rec.x, 0x3ffb, 0xcccccccccccccccd, 0x3ffb999999999999, 0x999999999999999a);

    /* Constants in code, and the same values computed at run time. */
    BITS(__LDBL_MAX__, 0x7ffe, 0xffffffffffffffff, 0x7ffeffffffffffff, 0xffffffffffffffff);
    BITS(-__LDBL_MAX__, 0xfffe, 0xffffffffffffffff, 0xfffeffffffffffff, 0xffffffffffffffff);
    BITS(neg(__LDBL_MAX__), 0xfffe, 0xffffffffffffffff, 0xfffeffffffffffff, 0xffffffffffffffff);
    BITS(__LDBL_DENORM_MIN__, 0x0, 0x0000000000000001, 0x0, 0x0000000000000001);
    BITS(-0.0L, 0x8000, 0x0000000000000000, 0x8000000000000000, 0x0000000000000000);
    BITS(1.1L, 0x3fff, 0x8ccccccccccccccd, 0x3fff199999999999, 0x999999999999999a);
    BITS(0.1L * 3, 0x3ffd, 0x999999999999999a, 0x3ffd333333333333, 0x3333333333333334);
    BITS(v_01 * v_3, 0x3ffd, 0x999999999999999a, 0x3ffd333333333333, 0x3333333333333334);
    BITS(0x1.fffffffffffffffffffffffffffffp0L, 0x4000, 0x8000000000000000, 0x4000000000000000, 0x0000000000000000);
    BITS(0x1.0000000000000001p0L, 0x3fff, 0x8000000000000000, 0x3fff000000000000, 0x0001000000000000);
    BITS(0x1.0000000000000003p0L, 0x3fff, 0x8000000000000002, 0x3fff000000000000, 0x0003000000000000);
    BITS(3.64519953188247460253e-4951L, 0x0, 0x0000000000000001, 0x0, 0x0002000000000000);
    BITS((long double)-1234567890123456789LL, 0xc03b, 0x891087a3ef4c08a8, 0xc03b12210f47de98, 0x1150000000000000);
    BITS((long double)(unsigned __int128)-1, 0x407f, 0x8000000000000000, 0x407f000000000000, 0x0000000000000000);

    /* printf of exact values. */
    FMT("%La", __LDBL_MAX__, "0xf.fffffffffffffffp+16380", "0x1.ffffffffffffffffffffffffffffp+16383");
    FMT("%La", __LDBL_MIN__, "0x8p-16385", "0x1p-16382");
    FMT("%La", __LDBL_EPSILON__, "0x8p-66", "0x1p-112");
    FMT("%La", __LDBL_DENORM_MIN__, "0x0.000000000000001p-16385", "0x0.0000000000000000000000000001p-16382");
    FMT("%La", 1.1L, "0x8.ccccccccccccccdp-3", "0x1.199999999999999999999999999ap+0");
    FMT("%La", 0x1.23456789abcdef0123456789abcdp-3L, "0x9.1a2b3c4d5e6f781p-6", "0x1.23456789abcdef0123456789abcdp-3");
    FMT("%.25Lg", 0.1L * 3, "0.300000000000000000010842", "0.3");
    FMT("%Lg", __LDBL_MAX__, "1.18973e+4932", "1.18973e+4932");
    FMT("%.21Lg", __LDBL_MAX__, "1.18973149535723176502e+4932", "1.18973149535723176509e+4932");
    FMT("%.36Lg", s_max, "1.18973149535723176502126385303097021e+4932", "1.18973149535723176508575932662800702e+4932");
    FMT("%Lg", -__LDBL_MIN__, "-3.3621e-4932", "-3.3621e-4932");
    FMT("%Lg", s_true_min, "3.6452e-4951", "6.47518e-4966");
    FMT("%.20Lg", 1.1L, "1.1", "1.1");
    FMT("%Lg", 1e5000L, "inf", "inf");
    FMT("%Lg", -1e5000L, "-inf", "-inf");
    return test_done();
}
