/* C11 6.2.5p11 _Complex and the GNU extensions (complex integer types,
 * imaginary constants, __real__/__imag__, ~ as conjugate): initializers,
 * part access as lvalues, + - and negation, mixed real/complex operands,
 * complex integer * and /, comparisons, conversions, compound assignment,
 * records and arrays of complex, passing and returning them by value. */
#include "test.h"
#include <stdarg.h>

typedef _Complex double cd;
typedef _Complex float cf;

cd gd = 1.5 + 2.5i;
cf gf = 3.0f - 4.0if;
_Complex int gi = 7 - 3i;
__complex__ unsigned short gus = 100 + 200i;
cd garr[3] = {1.0, 2.0i, 3.0 + 3.0i};
struct mixed { char c; cd z; short s; cf f; } gs = {'x', -1.0 + 0.25i, 9, 2.0f + 1.0if};
struct __attribute__((packed)) packed { char c; cf f; } gp = {1, 5.0f + 6.0if};
cd gzero;

static int re_i(cd z) { return (int)(__real__ z * 100); }
static int im_i(cd z) { return (int)(__imag__ z * 100); }

static cd add(cd a, cd b) { return a + b; }
static cf sub_f(cf a, cf b) { return a - b; }
static _Complex int mul_i(_Complex int a, _Complex int b) { return a * b; }
static _Complex long div_l(_Complex long a, _Complex long b) { return a / b; }
static _Complex unsigned div_u(_Complex unsigned a, _Complex unsigned b) { return a / b; }
static _Complex char id_c(_Complex char c) { return c; }
static struct mixed pass_struct(struct mixed m) {
    m.z = ~m.z;
    m.f += 1.0f;
    return m;
}
/* More complex arguments than argument registers. */
static double sum_many(int a, cd z1, cd z2, cd z3, cd z4, cd z5, cf f1, cf f2, cf f3, cf f4, cf f5) {
    cd t = z1 + z2 + z3 + z4 + z5;
    cf u = f1 + f2 + f3 + f4 + f5;
    return a + __real__ t + __imag__ t * 10 + __real__ u * 100 + __imag__ u * 1000;
}
static double va_sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++) {
        _Complex double z = va_arg(ap, _Complex double);
        _Complex float f = va_arg(ap, _Complex float);
        s += __real__ z + 10 * __imag__ z + 100 * __imag__ f;
    }
    va_end(ap);
    return s;
}
static _Complex long double ld_neg(_Complex long double x) { return -x; }

int main(void) {
    /* Static initializers. */
    ASSERT(150, re_i(gd));
    ASSERT(250, im_i(gd));
    ASSERT(3, __real__ gf);
    ASSERT(-4, __imag__ gf);
    ASSERT(7, __real__ gi);
    ASSERT(-3, __imag__ gi);
    ASSERT(200, __imag__ gus);
    ASSERT(100, re_i(garr[0]));
    ASSERT(0, im_i(garr[0]));
    ASSERT(200, im_i(garr[1]));
    ASSERT(300, re_i(garr[2]));
    ASSERT('x', gs.c);
    ASSERT(-100, re_i(gs.z));
    ASSERT(25, im_i(gs.z));
    ASSERT(9, gs.s);
    ASSERT(1, __imag__ gs.f);
    ASSERT(6, __imag__ gp.f);
    ASSERT(1, gzero == 0);
    ASSERT(16, sizeof(cd));
    ASSERT(8, sizeof(cf));
    ASSERT(8, _Alignof(cd));
    ASSERT(4, sizeof(_Complex short));
    ASSERT(32, sizeof(_Complex long double));

    /* Parts as lvalues, through pointers too. */
    cd z;
    __real__ z = 2.0;
    __imag__ z = -3.0;
    double *pi = &__imag__ z;
    *pi += 1.0;
    ASSERT(200, re_i(z));
    ASSERT(-200, im_i(z));
    cd *pz = &z;
    __real__ *pz = 4.0;
    ASSERT(400, re_i(*pz));
    ASSERT(0, __imag__ 5.0);
    ASSERT(5, __real__ 5);

    /* + - negation and conjugate; real operands stay real. */
    cd a = 1.0 + 2.0i, b = 0.5 - 4.0i;
    ASSERT(150, re_i(a + b));
    ASSERT(-200, im_i(a + b));
    ASSERT(50, re_i(a - b));
    ASSERT(600, im_i(a - b));
    ASSERT(-100, re_i(-a));
    ASSERT(-200, im_i(~a));
    ASSERT(100, re_i(~a));
    ASSERT(300, re_i(a + 2));
    ASSERT(200, im_i(2.0 - ~a));
    ASSERT(300, re_i(3 * a));
    ASSERT(600, im_i(a * 3.0));
    ASSERT(50, re_i(a / 2));
    ASSERT(100, im_i(a / 2.0));
    ASSERT(150, re_i(add(a, b)));
    cf fa = 1.0f + 1.0if;
    ASSERT(-2, __real__ sub_f(fa, 3.0f));
    ASSERT(1, __imag__ sub_f(fa, 3.0f));
    ASSERT(-3, __imag__ sub_f(fa, 4.0if));

    /* Complex integers: inline * and / (Smith's method, gcc's choice). */
    _Complex int i1 = 3 + 4i, i2 = 1 - 2i;
    ASSERT(11, __real__ mul_i(i1, i2));
    ASSERT(-2, __imag__ mul_i(i1, i2));
    _Complex long l1 = 100 + 50i;
    ASSERT(12, __real__ div_l(l1, 3 + 4i)); /* Smith: ratio 3/4 == 0 */
    ASSERT(-25, __imag__ div_l(l1, 3 + 4i));
    ASSERT(5, __real__ div_l(l1, 20));
    ASSERT(-12, __real__ div_l(-l1, 8 + 1i));
    ASSERT(0, __real__ div_u(3, 7));
    ASSERT(6, __real__ div_u(42, 7));
    ASSERT(4, __real__ div_u(100 + 4i, 25));
    _Complex char cc = id_c(1 + 2i);
    ASSERT(2, __imag__ cc);
    _Complex short cs = 300 + 2i;
    cs *= 2;
    ASSERT(600, __real__ cs);
    ASSERT(4, __imag__ cs);
    cs -= 1i;
    ASSERT(3, __imag__ cs);

    /* Comparisons and truth values. */
    ASSERT(1, a == 1.0 + 2.0i);
    ASSERT(0, a != 1.0 + 2.0i);
    ASSERT(1, a != 1.0);
    ASSERT(1, 1.0 == (a - 2.0i));
    ASSERT(1, (cd)0.0 == (cd)-0.0);
    ASSERT(0, !a);
    ASSERT(1, !gzero);
    ASSERT(1, (_Bool)(0.0 + 1.0i));
    ASSERT(0, (_Bool)gzero);
    ASSERT(1, a && 2.0i);
    ASSERT(1, gzero || 1i);
    int taken = 0;
    if (3i)
        taken = 1;
    ASSERT(1, taken);
    taken = 0;
    for (cd w = 2.0; w; w -= 1.0)
        taken++;
    ASSERT(2, taken);
    ASSERT(200, im_i(taken ? a : b));

    /* Conversions. */
    double d = a;
    ASSERT(100, (int)(d * 100));
    int n = 7.9 + 3.0i;
    ASSERT(7, n);
    cd from_int = 5;
    ASSERT(500, re_i(from_int));
    ASSERT(0, im_i(from_int));
    cf narrow = (cf)(1.5 + 2.25i);
    ASSERT(225, (int)(__imag__ narrow * 100));
    cd wide = narrow;
    ASSERT(150, re_i(wide));
    cd from_ci = i1;
    ASSERT(400, im_i(from_ci));
    _Complex int from_cd = (_Complex int)(2.9 - 3.9i);
    ASSERT(-3, __imag__ from_cd);
    _Complex long double ld = a;
    ASSERT(200, (int)(__imag__ ld * 100));
    ld = ld_neg(ld + 1.0L);
    ASSERT(-200, (int)(__real__ ld * 100));

    /* Compound assignment, on places computed once. */
    cd arr[4] = {0};
    int k = 0;
    arr[k++] += 1.0 + 1.0i;
    arr[k++] -= a;
    ASSERT(2, k);
    ASSERT(100, re_i(arr[0]));
    ASSERT(-200, im_i(arr[1]));
    arr[2] = 4.0 + 8.0i;
    arr[2] /= 4.0;
    ASSERT(200, im_i(arr[2]));
    double dd = 1.0;
    dd += 2.0i + 0.5;
    ASSERT(150, (int)(dd * 100));
    cd *p = arr;
    *p++ = 9.0;
    *p++ *= 2.0;
    ASSERT(-400, im_i(arr[1]));
    ASSERT(2, p - arr);

    /* Records and calls. */
    struct mixed m = gs;
    struct mixed r = pass_struct(m);
    ASSERT(-25, im_i(r.z));
    ASSERT(3, __real__ r.f);
    ASSERT(9, r.s);
    ASSERT(25, im_i(m.z));
    struct packed pk = gp;
    pk.f = pk.f + 1.0f;
    ASSERT(6, __real__ pk.f);
    ASSERT(6, __imag__ pk.f);
    ASSERT(1, pk.f == 6.0f + 6.0if);
    double s = sum_many(1, 1.0, 1.0i, 1.0, 1.0i, 1.0, 1.0f, 1.0if, 1.0f, 1.0if, 1.0f);
    ASSERT(2324, (int)s);

    /* GNU ++/-- change the real part; __builtin_complex; variadic arguments. */
    cd inc = 1.0 + 1.0i;
    cd old = inc++;
    ASSERT(100, re_i(old));
    ASSERT(200, re_i(inc));
    ++inc;
    --inc;
    inc--;
    ASSERT(100, re_i(inc));
    ASSERT(100, im_i(inc));
    cd incs[2] = {0};
    int j = 0;
    incs[j++]++;
    ASSERT(1, j);
    ASSERT(100, re_i(incs[0]));
    _Complex int ci = 5i;
    ci++;
    ASSERT(1, __real__ ci);
    ASSERT(5, __imag__ ci);
    cd bc = __builtin_complex(1.0, -0.0);
    ASSERT(1, 1.0 / __imag__ bc < 0);
    ASSERT(100, re_i(bc));
    ASSERT(258, (int)va_sum(2, 1.0 + 1.0i, 2.0f + 2.0if, 2.0 + 2.0i, 0.5f + 0.25if));
    return test_done();
}
