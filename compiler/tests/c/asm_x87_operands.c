/* x87 inline asm operands: the constraints `t` (st(0)) and `u` (st(1)),
 * with gcc's stack rules: inputs pushed before the asm, those tied to an
 * output or clobbered popped by it, outputs pushed by it, the rest popped
 * after (gcc manual, "x86 Floating-Point asm Operands"). From
 * gcc.c-torture/execute/990413-2.c (fpatan, fsqrt in glibc's old math
 * inlines). Loops check that nothing is left on the 8-register stack. */
// targets: x86_64
// modes: native
#include "test.h"

static long double atan2_x87(long double y, long double x) {
    long double v;
    __asm__ __volatile__("fpatan" : "=t"(v) : "0"(x), "u"(y) : "st(1)");
    return v;
}

static long double sqrt_x87(long double x) {
    long double r;
    __asm__ __volatile__("fsqrt" : "=t"(r) : "0"(x));
    return r;
}

static double sqrt_double(double x) {
    double r;
    __asm__("fsqrt" : "=t"(r) : "0"(x));
    return r;
}

static float sqrt_float(float x) {
    float r;
    __asm__("fsqrt" : "=t"(r) : "0"(x));
    return r;
}

/* st(1) is read but not popped: it stays, and the compiler pops it. */
static long double add_x87(long double a, long double b) {
    long double r;
    __asm__("fadd %2, %0" : "=t"(r) : "0"(a), "u"(b));
    return r;
}

static void sincos_x87(long double x, long double *s, long double *c) {
    long double sv, cv;
    __asm__("fsincos" : "=t"(cv), "=u"(sv) : "0"(x));
    *s = sv;
    *c = cv;
}

long double g_pi;

static int same(long double a, long double b) { return a == b; }

int main(void) {
    ASSERT(1, same(sqrt_x87(4.0L), 2.0L));
    ASSERT(1, same(sqrt_x87(2.0L), 1.41421356237309504880168872420969808L));
    ASSERT(1, sqrt_double(2.0) == 1.4142135623730951);
    ASSERT(1, sqrt_float(2.0f) == 1.41421354f);
    ASSERT(1, same(atan2_x87(1.0L, 1.0L), 0.785398163397448309615660845819875721L));
    ASSERT(1, same(atan2_x87(-0.0L, 1.0L), 0.0L) && __builtin_signbit(atan2_x87(-0.0L, 1.0L)));
    long double acc = 0;
    for (int i = 0; i < 20; i++)
        acc = add_x87(acc, 0.5L);
    ASSERT(10, (int)acc);
    long double s = 0, c = 0, sum = 0;
    for (int i = 0; i < 20; i++) {
        sincos_x87(0.0L, &s, &c);
        sum += c;
    }
    ASSERT(1, s == 0.0L && c == 1.0L);
    ASSERT(20, (int)sum);
    __asm__("fldpi" : "=t"(g_pi));
    ASSERT(1, same(g_pi, 3.14159265358979323851280895940618620L));
    double x = -0.0;
    /* 990413-2: asin(x) = atan2(x, sqrt(1 - x * x)) */
    x = atan2_x87(x, sqrt_x87(1.0 - x * x));
    ASSERT(1, x == 0.0);
    for (int i = 0; i < 20; i++)
        x += atan2_x87(sqrt_x87(3.0L), 1.0L);
    ASSERT(20, (int)(x * 3 / 3.14159265358979323846 + 0.5));
    return test_done();
}
