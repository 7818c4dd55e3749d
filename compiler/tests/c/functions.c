/* C11 6.9.1, 6.5.2.2: definitions, prototypes, recursion, function pointers,
   many arguments, struct and scalar arguments of every class. */
#include "test.h"

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int apply(int (*f)(int, int), int a, int b) { return f(a, b); }
static int (*choose(int which))(int, int) { return which ? add : sub; }
static int eight(int a, int b, int c, int d, int e, int f, int g, int h) {
    return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8;
}
static long mixed(char a, short b, int c, long d, unsigned char e, unsigned short f, double g, float h) {
    return a + b + c + d + e + f + (long)g + (long)h;
}
static double many_doubles(double a, double b, double c, double d, double e, double f, double g, double h, double i,
                           double j) {
    return a + b + c + d + e + f + g + h + i + j;
}
static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int is_even(int n);
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static void set(int *p, int v) { *p = v; }
static int ackermann(int m, int n) {
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}
static unsigned char ret_uchar(int x) { return x; }
static signed char ret_schar(int x) { return x; }
static short ret_short(int x) { return x; }
static _Bool ret_bool(int x) { return x; }
static float half(float x) { return x / 2; }
static long double ld_twice(long double x) { return x * 2; }
static __int128 mul128(long a, long b) { return (__int128)a * b; }

struct hfa { float a, b, c; };
struct two_longs { long a, b; };
struct one_double { double d; };
struct int_float { int i; float f; };
struct three_char { char a, b, c; };
static float hfa_sum(struct hfa h) { return h.a + h.b + h.c; }
static struct hfa hfa_make(float x) { return (struct hfa){x, x * 2, x * 3}; }
static long tl_sum(struct two_longs t) { return t.a - t.b; }
static struct two_longs tl_make(long a, long b) { return (struct two_longs){a, b}; }
static double od_get(struct one_double o) { return o.d; }
static struct int_float if_make(int i, float f) { return (struct int_float){i, f}; }
static int tc_sum(struct three_char t) { return t.a + t.b + t.c; }
static struct three_char tc_make(int v) { return (struct three_char){v, v + 1, v + 2}; }
static int nine_structs(struct two_longs a, struct two_longs b, struct two_longs c, struct two_longs d,
                        struct two_longs e) {
    return (int)(a.a + b.a + c.a + d.a + e.a + a.b + b.b + c.b + d.b + e.b);
}

int main(void) {
    ASSERT(7, add(3, 4));
    ASSERT(-1, apply(sub, 3, 4));
    ASSERT(12, apply(add, 5, 7));
    ASSERT(9, choose(1)(4, 5));
    ASSERT(-1, choose(0)(4, 5));
    int (*fp)(int, int) = &add;
    ASSERT(10, (*fp)(4, 6));
    ASSERT(204, eight(1, 2, 3, 4, 5, 6, 7, 8));
    ASSERT(36, mixed(1, 2, 3, 4, 5, 6, 7.9, 8.5f));
    ASSERT(55, (int)many_doubles(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
    ASSERT(120, fact(5));
    ASSERT(1, is_even(10));
    ASSERT(1, is_odd(7));
    int v = 0;
    set(&v, 33);
    ASSERT(33, v);
    ASSERT(61, ackermann(2, 29));
    ASSERT(200, ret_uchar(456));
    ASSERT(-56, ret_schar(200));
    ASSERT(-1, ret_short(65535));
    ASSERT(1, ret_bool(42));
    ASSERT(3, (int)(half(7.0f) * 10) / 10);
    ASSERT(7, (int)ld_twice(3.5L));
    ASSERT(1, mul128(1L << 40, 1L << 40) == (__int128)1 << 80);
    ASSERT(6, (int)hfa_sum(hfa_make(1.0f)));
    struct hfa h = hfa_make(2.0f);
    ASSERT(6, (int)h.c);
    ASSERT(-4, tl_sum(tl_make(3, 7)));
    ASSERT(2, (int)od_get((struct one_double){2.75}));
    struct int_float f = if_make(5, 0.5f);
    ASSERT(5, f.i);
    ASSERT(1, f.f == 0.5f);
    ASSERT(12, tc_sum(tc_make(3)));
    struct two_longs t1 = {1, 2};
    ASSERT(15, nine_structs(t1, t1, t1, t1, t1));
    return test_done();
}
