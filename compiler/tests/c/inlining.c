/* What the inliner of the opt pipeline (passes/inline.rs) must copy right
   or leave alone: struct arguments by value and struct results (sret),
   calls in loops to callees whose locals are read again, VLAs and alloca in
   an inlined callee called in a loop (stack save/restore), computed goto in
   a callee, always_inline and noinline, recursion and variadic callees
   (setjmp, which the interpreter does not run, is in the filetests). Each check holds at every optimization level. */
#include "test.h"
#include <stdarg.h>

struct Pair { int a, b; };
struct Big { long v[6]; };

static int sum_pair(struct Pair p) {
    p.a += 100; /* the callee's own copy: the caller's object is unchanged */
    return p.a + p.b;
}

static struct Pair swap_pair(struct Pair p) {
    struct Pair r = { p.b, p.a };
    return r;
}

static struct Big scale(struct Big b, long k) {
    for (int i = 0; i < 6; i++)
        b.v[i] *= k;
    return b;
}

/* Reads its array after writing only part of it: each call must start from
   its own fresh copy of the initializer. */
static int counter_in_array(int n) {
    int a[4] = { 1, 2, 3, 4 };
    a[n & 3] += n;
    return a[0] + a[1] + a[2] + a[3];
}

static int vla_sum(int n) {
    int v[n];
    for (int i = 0; i < n; i++)
        v[i] = i * i;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

static long alloca_sum(int n) {
    long *p = __builtin_alloca(n * sizeof(long));
    long s = 0;
    for (int i = 0; i < n; i++)
        p[i] = i + 1;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

static int pick(int i) {
    void *t = i & 1 ? &&odd : &&even;
    goto *t;
even:
    return i * 10;
odd:
    return i * 100;
}

static inline __attribute__((always_inline)) int twice(int x) { return 2 * x; }
static __attribute__((noinline)) int thrice(int x) { return 3 * x; }

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static long vsum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++)
        s = s * 10 + va_arg(ap, int);
    va_end(ap);
    return s;
}

static int add1(int x) { return x + 1; }


static int no_return_value(int x) {
    if (x > 0)
        return x;
}

int main(void) {
    struct Pair p = { 1, 2 };
    ASSERT(103, sum_pair(p));
    ASSERT(1, p.a);
    struct Pair q = swap_pair(p);
    ASSERT(2, q.a);
    ASSERT(1, q.b);
    q = swap_pair(q);
    ASSERT(1, q.a);
    struct Big b = { { 1, 2, 3, 4, 5, 6 } };
    struct Big c = scale(b, 3);
    ASSERT(18, c.v[5]);
    ASSERT(6, b.v[5]);
    b = scale(b, 2);
    ASSERT(12, b.v[5]);
    int t = 0;
    for (int i = 0; i < 8; i++)
        t += counter_in_array(i);
    ASSERT(108, t);
    long s = 0;
    for (int i = 0; i < 2000; i++)
        s += vla_sum(50) + alloca_sum(50);
    ASSERT(2000L * (40425 + 1275), s);
    ASSERT(20, pick(2));
    ASSERT(300, pick(3));
    int u = 0;
    for (int i = 0; i < 4; i++)
        u += pick(i);
    ASSERT(420, u);
    ASSERT(14, twice(7));
    ASSERT(21, thrice(7));
    ASSERT(55, fib(10));
    ASSERT(123, vsum(3, 1, 2, 3));
    ASSERT(0, vsum(0));
    ASSERT(6, add1(5));
    ASSERT(4, no_return_value(4));
    return test_done();
}
