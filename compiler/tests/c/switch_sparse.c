/* Sparse switches with many cases (a binary search over the cases, with a
 * jump table for a dense run inside), for every integer type and signedness:
 * each switch is checked against a linear search of the same case list, on
 * every case value, its neighbours and the type's extremes. */
#include "test.h"

#define CASES(X)                                                                                   \
    X(-2147483647 - 1, 1) X(-1000000, 2) X(-70000, 3) X(-4097, 4) X(-300, 5) X(-129, 6) X(-128, 7) \
    X(-7, 8) X(-1, 9) X(0, 10) X(1, 11) X(2, 12) X(3, 13) X(4, 14) X(5, 15) X(6, 16) X(7, 17)      \
    X(8, 18) X(9, 19) X(10, 20) X(11, 21) X(12, 22) X(13, 23) X(127, 24) X(128, 25) X(255, 26)     \
    X(256, 27) X(999, 28) X(4096, 29) X(32767, 30) X(32768, 31) X(65535, 32) X(65536, 33)          \
    X(1000003, 34) X(2147483647, 35)

static const long long case_values[] = {
#define VALUE(v, r) v,
    CASES(VALUE)
};
static const int case_results[] = {
#define RESULT(v, r) r,
    CASES(RESULT)
};
#define NCASES ((int)(sizeof case_values / sizeof case_values[0]))

#define CASE(v, r)                                                                                 \
    case (v):                                                                                      \
        return (r);

/* The first case equal to x (as the switch type reads both), else 0. */
#define REFERENCE(name, T)                                                                         \
    static int name(T x) {                                                                         \
        for (int i = 0; i < NCASES; i++) {                                                         \
            int dup = 0;                                                                           \
            for (int j = 0; j < i; j++)                                                            \
                dup |= (T)case_values[j] == (T)case_values[i];                                     \
            if (!dup && (T)case_values[i] == x)                                                    \
                return case_results[i];                                                            \
        }                                                                                          \
        return 0;                                                                                  \
    }

static int sw_int(int x) {
    switch (x) {
        CASES(CASE)
    default:
        return 0;
    }
}
static int sw_uint(unsigned x) {
    switch (x) {
        CASES(CASE)
    default:
        return 0;
    }
}
static int sw_long(long x) {
    switch (x) {
        CASES(CASE)
    case 0x7fffffffffffffffL:
        return 40;
    case -0x7fffffffffffffffL - 1:
        return 41;
    case 0x100000000L:
        return 42;
    default:
        return 0;
    }
}
static int sw_ull(unsigned long long x) {
    switch (x) {
        CASES(CASE)
    case 0x8000000000000000ULL:
        return 43;
    case 0xfffffffffffffff0ULL:
        return 44;
    default:
        return 0;
    }
}
REFERENCE(ref_int, int)
REFERENCE(ref_uint, unsigned)
REFERENCE(ref_long, long)
REFERENCE(ref_ull, unsigned long long)

static int ref_long_all(long x) {
    if (x == 0x7fffffffffffffffL)
        return 40;
    if (x == -0x7fffffffffffffffL - 1)
        return 41;
    if (x == 0x100000000L)
        return 42;
    return ref_long(x);
}
static int ref_ull_all(unsigned long long x) {
    if (x == 0x8000000000000000ULL)
        return 43;
    if (x == 0xfffffffffffffff0ULL)
        return 44;
    return ref_ull(x);
}

/* Narrow types: case values are converted to the switch type, and duplicates
 * after conversion would be an error, so these lists are their own. */
static int sw_schar(signed char x) {
    switch (x) {
    case -128: return 1; case -100: return 2; case -64: return 3; case -9: return 4;
    case -1: return 5; case 0: return 6; case 3: return 7; case 17: return 8;
    case 40: return 9; case 77: return 10; case 100: return 11; case 127: return 12;
    default: return 0;
    }
}
static int sw_ushort(unsigned short x) {
    switch (x) {
    case 0: return 1; case 2: return 2; case 300: return 3; case 1000: return 4;
    case 4095: return 5; case 4096: return 6; case 20000: return 7; case 32767: return 8;
    case 32768: return 9; case 50000: return 10; case 65534: return 11; case 65535: return 12;
    default: return 0;
    }
}
static const int schar_cases[] = {-128, -100, -64, -9, -1, 0, 3, 17, 40, 77, 100, 127};
static const int ushort_cases[] = {0, 2, 300, 1000, 4095, 4096, 20000, 32767, 32768, 50000, 65534, 65535};

static int ref_small(const int *cases, int n, int x) {
    for (int i = 0; i < n; i++)
        if (cases[i] == x)
            return i + 1;
    return 0;
}

int main(void) {
    long long probes[3 * NCASES + 16];
    int np = 0;
    for (int i = 0; i < NCASES; i++) {
        probes[np++] = case_values[i] - 1;
        probes[np++] = case_values[i];
        probes[np++] = case_values[i] + 1;
    }
    long long extremes[] = {0x7fffffffffffffffLL, -0x7fffffffffffffffLL - 1, 0x100000000LL, -1LL,
                            (long long)0x8000000000000000ULL, (long long)0xfffffffffffffff0ULL,
                            4294967295LL, 4294967296LL, -4294967296LL, 1LL << 40};
    for (unsigned i = 0; i < sizeof extremes / sizeof extremes[0]; i++)
        probes[np++] = extremes[i];
    int bad = 0;
    unsigned long long sum = 0;
    for (int i = 0; i < np; i++) {
        long long p = probes[i];
        bad += sw_int((int)p) != ref_int((int)p);
        bad += sw_uint((unsigned)p) != ref_uint((unsigned)p);
        bad += sw_long((long)p) != ref_long_all((long)p);
        bad += sw_ull((unsigned long long)p) != ref_ull_all((unsigned long long)p);
        sum = sum * 31 + sw_int((int)p) + 3 * sw_uint((unsigned)p) + 5 * sw_long((long)p) + 7 * sw_ull((unsigned long long)p);
    }
    for (int x = -300; x < 70000; x++) {
        bad += sw_schar((signed char)x) != ref_small(schar_cases, 12, (signed char)x);
        bad += sw_ushort((unsigned short)x) != ref_small(ushort_cases, 12, (unsigned short)x);
        sum += sw_schar((signed char)x) + sw_ushort((unsigned short)x);
    }
    ASSERT(0, bad);
    printf("checksum %llu\n", sum);
    return test_done();
}
