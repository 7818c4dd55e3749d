/* What gcc accepts in its default gnu mode without a declaration or a type:
   `alloca` used undeclared (gcc's implicit builtin: no library call), and
   implicit int after an __attribute__ in a function definition (C89), and
   scalar_storage_order("little-endian"), the targets' own order; a C99
   inline definition with always_inline and no external definition, which
   gcc inlines at -O0 too (stdarg-4). */
#include "test.h"
#include <stdarg.h>

static long total;

inline void __attribute__((always_inline)) add_two(va_list ap) {
    total = va_arg(ap, double);
    total += va_arg(ap, long);
}

static long sum_two(int n, ...) {
    va_list ap;
    va_start(ap, n);
    add_two(ap);
    va_end(ap);
    return total + n;
}

__attribute__((noinline)) twice(int x) { return 2 * x; }

__attribute__((noinline, unused)) static_like(x) int x;
{
    return x + 1;
}

struct __attribute__((scalar_storage_order("little-endian"))) le {
    unsigned long long f0 : 29;
    unsigned long long f1 : 4;
    unsigned short h;
};

static int sum_alloca(int n) {
    int *v = alloca(n * sizeof(int));
    char *c = (char *)alloca(3);
    int s = 0;
    for (int i = 0; i < n; i++)
        v[i] = 3 * i;
    c[0] = 1, c[1] = 2, c[2] = 3;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s + c[0] + c[1] + c[2];
}

int main(void) {
    ASSERT(42, twice(21));
    ASSERT(-6, twice(-3));
    ASSERT(8, static_like(7));
    ASSERT(141, sum_alloca(10));
    ASSERT(6, sum_alloca(0));
    ASSERT(0, ((unsigned long)alloca(24) & 7));
    ASSERT(176, sum_two(32, 16.0, 128L));
    struct le v = {0};
    v.f0 = 23;
    v.h = 0x1234;
    ASSERT(23, v.f0);
    ASSERT(0x34, *(unsigned char *)&v.h);
    return test_done();
}
