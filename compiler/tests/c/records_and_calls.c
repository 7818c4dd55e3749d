/* Records through every path: function pointers returning structs, nested
   conditionals of structs, compound literals as values, unions and arrays
   by value, long double members, struct variadic arguments, chained access
   to members of call results. */
#include "test.h"
#include <stdarg.h>

struct v2 { double x, y; };
struct tag { char name[6]; int n; };
union bits { float f; unsigned u; };
struct ld { long double v; int k; };
struct arr { int a[5]; };

static struct v2 add(struct v2 a, struct v2 b) { return (struct v2){a.x + b.x, a.y + b.y}; }
static struct v2 neg(struct v2 a) { return (struct v2){-a.x, -a.y}; }
static struct tag mk_tag(int n) {
    struct tag t = {"abc", n};
    t.name[3] = (char)('0' + n);
    return t;
}
static unsigned as_bits(union bits b) { return b.u; }
static union bits from_float(float f) { union bits b; b.f = f; return b; }
static struct ld twice(struct ld a) { a.v *= 2; a.k *= 2; return a; }
static int sum_arr(struct arr s) {
    int t = 0;
    for (int i = 0; i < 5; i++) t += s.a[i];
    s.a[0] = 99;
    return t;
}
static struct arr make_arr(int base) {
    struct arr r;
    for (int i = 0; i < 5; i++) r.a[i] = base + i;
    return r;
}
static double sum_v2s(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    while (n--) {
        struct v2 v = va_arg(ap, struct v2);
        s += v.x * 10 + v.y;
    }
    va_end(ap);
    return s;
}

int main(void) {
    struct v2 (*op)(struct v2, struct v2) = add;
    struct v2 a = {1, 2}, b = {10, 20};
    struct v2 c = op(a, b);
    ASSERT(11, (int)c.x);
    ASSERT(22, (int)c.y);
    ASSERT(-22, (int)neg(op(a, b)).y);
    int pick = 1;
    struct v2 d = pick ? (pick > 1 ? a : b) : neg(a);
    ASSERT(10, (int)d.x);
    d = (struct v2){3.5, 4.5};
    ASSERT(8, (int)(d.x + d.y));
    ASSERT(7, (int)add(d, (struct v2){0.5, 0}).x + 3);
    ASSERT('2', mk_tag(2).name[3]);
    ASSERT(5, mk_tag(5).n);
    struct tag t = mk_tag(7);
    ASSERT('c', t.name[2]);
    ASSERT(0x3f800000, as_bits(from_float(1.0f)));
    ASSERT(0x40490fdb, from_float(3.14159265f).u);
    struct ld l = {1.5L, 3};
    struct ld l2 = twice(twice(l));
    ASSERT(6, (int)l2.v);
    ASSERT(12, l2.k);
    struct arr r = make_arr(1);
    ASSERT(15, sum_arr(r));
    ASSERT(1, r.a[0]);
    ASSERT(20, sum_arr(make_arr(2)));
    ASSERT(13, make_arr(10).a[3]);
    ASSERT(154, (int)sum_v2s(3, a, b, (struct v2){2, 2}));
    struct v2 arr2[2] = {a, b};
    struct v2 *p = arr2;
    p[1] = add(p[0], p[1]);
    ASSERT(22, (int)arr2[1].y);
    struct { struct v2 in; int k; } w = {.in = b, .k = 3};
    w.in = neg(w.in);
    ASSERT(-20, (int)w.in.y);
    return test_done();
}
