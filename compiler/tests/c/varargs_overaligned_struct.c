/* va_arg of a struct aligned to 16 or more that was passed on the stack: the
 * caller puts it at a 16-aligned offset of the argument area, so va_arg must
 * round the overflow pointer up (x86-64 psABI 3.5.7). From gcc.c-torture/
 * execute/pr92904.c, where phicc read it 8 bytes early on x86-64. */
#include "test.h"
#include <stdarg.h>

struct T { long long a, b; } __attribute__((aligned(16)));
struct V { double a, b, c, d; } __attribute__((aligned(32)));
struct X { double a; long long b; } __attribute__((aligned(16)));

/* Skips `n` ints, then returns the struct's two halves combined. */
static long long take_t(int n, ...) {
    va_list ap;
    va_start(ap, n);
    while (n--)
        va_arg(ap, int);
    struct T t = va_arg(ap, struct T);
    int after = va_arg(ap, int);
    va_end(ap);
    return t.a * 100 + t.b * 10 + after;
}

static double take_v(int n, ...) {
    va_list ap;
    va_start(ap, n);
    while (n--)
        va_arg(ap, double);
    struct V v = va_arg(ap, struct V);
    va_end(ap);
    return v.a + v.b * 10 + v.c * 100 + v.d * 1000;
}

static long long take_x(int n, ...) {
    va_list ap;
    va_start(ap, n);
    while (n--) {
        va_arg(ap, int);
        va_arg(ap, double);
    }
    struct X x = va_arg(ap, struct X);
    va_end(ap);
    return (long long)x.a * 10 + x.b;
}

int main(void) {
    struct T t = {3, 4};
    ASSERT(347, take_t(0, t, 7));
    ASSERT(347, take_t(4, 0, 0, 0, 0, t, 7));
    ASSERT(347, take_t(5, 0, 0, 0, 0, 0, t, 7));
    ASSERT(347, take_t(6, 0, 0, 0, 0, 0, 0, t, 7));
    ASSERT(347, take_t(7, 0, 0, 0, 0, 0, 0, 0, t, 7));
    ASSERT(347, take_t(8, 0, 0, 0, 0, 0, 0, 0, 0, t, 7));
    struct V v = {1, 2, 3, 4};
    ASSERT(4321, take_v(0, v));
    ASSERT(4321, take_v(1, 0.0, v));
    ASSERT(4321, take_v(8, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, v));
    ASSERT(4321, take_v(9, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, v));
    struct X x = {5.0, 6};
    ASSERT(56, take_x(0, x));
    ASSERT(56, take_x(6, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, x));
    ASSERT(56, take_x(8, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, x));
    ASSERT(56, take_x(9, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0.0, x));
    return test_done();
}
