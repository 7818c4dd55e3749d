/* _Complex * and / of floating types, which gcc -O0 and phicc compute with
 * libgcc's __mulsc3/__muldc3/__divdc3/... (C11 Annex G: infinities and
 * NaNs survive), and complex values passed to and returned from libm
 * (cabs, cexp, csqrt, conj, carg: the target's complex ABI against
 * gcc-compiled code), and a static `_Complex long double`. Native runs
 * only: the interpreter has neither libgcc nor libm's complex functions, and
 * reads no `long double` inside a static aggregate. */
// modes: native
#include "test.h"
#include <complex.h>
#include <math.h>

_Complex long double gld = 1.25L + 0.5iL;

static int c100(double x) { return (int)lround(x * 100); }

static _Complex float mulf(_Complex float a, _Complex float b) { return a * b; }
static _Complex float divf(_Complex float a, _Complex float b) { return a / b; }
static _Complex double muld(_Complex double a, _Complex double b) { return a * b; }
static _Complex double divd(_Complex double a, _Complex double b) { return a / b; }
static _Complex long double mulld(_Complex long double a, _Complex long double b) { return a * b; }
static _Complex long double divld(_Complex long double a, _Complex long double b) { return a / b; }

int main(void) {
    ASSERT(125, c100((double)__real__ gld));
    ASSERT(50, c100((double)__imag__ gld));
    _Complex double a = 1.0 + 2.0i, b = 3.0 - 1.0i;
    ASSERT(500, c100(__real__ muld(a, b)));
    ASSERT(500, c100(__imag__ muld(a, b)));
    ASSERT(10, c100(__real__ divd(a, b)));
    ASSERT(70, c100(__imag__ divd(a, b)));
    _Complex float fa = 2.0f + 2.0if, fb = 0.0f + 1.0if;
    ASSERT(-200, c100(__real__ mulf(fa, fb)));
    ASSERT(200, c100(__imag__ divf(fa, fb) * -1.0f));
    _Complex long double la = 1.5L + 0.5iL;
    ASSERT(200, c100((double)__real__ mulld(la, la)));
    ASSERT(150, c100((double)__imag__ mulld(la, la)));
    ASSERT(100, c100((double)__real__ divld(la, la)));
    ASSERT(0, c100((double)__imag__ divld(la, la)));

    /* Annex G: an infinite operand gives an infinite result, not NaN. */
    _Complex double inf = INFINITY + 0.0i;
    _Complex double p = muld(inf, 1.0 + 1.0i);
    ASSERT(1, isinf(__real__ p));
    ASSERT(1, isinf(__imag__ p));
    _Complex double q = divd(1.0 + 1.0i, 0.0);
    ASSERT(1, isinf(__real__ q));
    _Complex double r = divd(1.0 + 1.0i, inf);
    ASSERT(0, c100(__real__ r));
    ASSERT(1, isnan(__real__ divd(0.0, 0.0 + 0.0i)));
    /* Signed zeros of mixed real/complex operands. */
    _Complex double mz = -0.0 + -0.0i;
    _Complex double sum = 0.0 + mz;
    ASSERT(1, signbit(__imag__ sum) != 0);
    ASSERT(0, signbit(__real__ sum) != 0);
    _Complex double full = (0.0 + 0.0i) + mz;
    ASSERT(0, signbit(__imag__ full) != 0);

    /* libm: complex arguments and results across the ABI. */
    ASSERT(500, c100(cabs(3.0 + 4.0i)));
    ASSERT(500, c100(cabsf(3.0f + 4.0if)));
    ASSERT(500, c100((double)cabsl(3.0L + 4.0iL)));
    _Complex double e = cexp(I * M_PI);
    ASSERT(-100, c100(creal(e)));
    ASSERT(0, c100(cimag(e)));
    _Complex double s = csqrt(-4.0 + 0.0i);
    ASSERT(0, c100(creal(s)));
    ASSERT(200, c100(cimag(s)));
    _Complex float sf = csqrtf(0.0f + 2.0if);
    ASSERT(100, c100(crealf(sf)));
    ASSERT(100, c100(cimagf(sf)));
    _Complex double cj = conj(a);
    ASSERT(-200, c100(cimag(cj)));
    ASSERT(100, c100(carg(1.0 + 0.0i) + 1.0));
    _Complex long double el = cexpl(0.0L + 0.0iL);
    ASSERT(100, c100((double)creall(el)));
    return test_done();
}
