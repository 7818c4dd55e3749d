/* The assertion helper of the C test suite (chibicc's style).
 * ASSERT(expected, expr) prints "LINE => value" for every check, so the
 * whole output can be compared with gcc's, and exits 1 on a mismatch. */
#ifndef PHICC_TEST_H
#define PHICC_TEST_H

int printf(const char *fmt, ...);
void exit(int status);

static void assert_eq(long long expected, long long actual, const char *code, int line) {
    printf("%d => %lld\n", line, actual);
    if (expected != actual) {
        printf("%d: %s => %lld, expected %lld\n", line, code, actual, expected);
        exit(1);
    }
}

#define ASSERT(expected, expr) assert_eq((long long)(expected), (long long)(expr), #expr, __LINE__)

static int test_done(void) {
    printf("OK\n");
    return 0;
}

#endif
