/* C11 7.16: variadic functions: va_start, va_arg of every class, va_copy, v*printf. */
#include "test.h"
#include <stdarg.h>

int vsnprintf(char *, unsigned long, const char *, va_list);
int snprintf(char *, unsigned long, const char *, ...);
int strcmp(const char *, const char *);

struct two { int a; int b; };
struct mixd { double d; long l; };
struct large { long v[4]; };

static int sum_ints(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static long sum_mixed(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    long s = 0;
    for (const char *p = fmt; *p; p++) {
        switch (*p) {
        case 'i': s += va_arg(ap, int); break;
        case 'l': s += va_arg(ap, long); break;
        case 'd': s += (long)(va_arg(ap, double) * 10); break;
        case 'p': s += *va_arg(ap, int *); break;
        case 's': { struct two t = va_arg(ap, struct two); s += t.a * t.b; break; }
        case 'm': { struct mixd m = va_arg(ap, struct mixd); s += (long)m.d + m.l; break; }
        case 'L': { struct large g = va_arg(ap, struct large); s += g.v[0] + g.v[3]; break; }
        }
    }
    va_end(ap);
    return s;
}

static int count_twice(int n, ...) {
    va_list ap, copy;
    va_start(ap, n);
    va_copy(copy, ap);
    int a = 0, b = 0;
    for (int i = 0; i < n; i++)
        a += va_arg(ap, int);
    for (int i = 0; i < n; i++)
        b += va_arg(copy, int) * 2;
    va_end(copy);
    va_end(ap);
    return a + b;
}

static int inner_sum(int n, va_list ap) {
    int s = 0;
    while (n--)
        s += va_arg(ap, int);
    return s;
}

static int outer_sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = inner_sum(n, ap);
    va_end(ap);
    return s;
}

static void format(char *buf, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, 64, fmt, ap);
    va_end(ap);
}

static double avg(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double);
    va_end(ap);
    return s / n;
}

int main(void) {
    ASSERT(0, sum_ints(0));
    ASSERT(6, sum_ints(3, 1, 2, 3));
    ASSERT(55, sum_ints(10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
    ASSERT(-3, sum_ints(2, -1, -2));
    int x = 40;
    struct two t = {3, 4};
    struct mixd md = {2.5, 7};
    struct large lg = {{1, 2, 3, 4}};
    ASSERT(6, sum_mixed("il", 1, 5L));
    ASSERT(25, sum_mixed("d", 2.5));
    ASSERT(40, sum_mixed("p", &x));
    ASSERT(12, sum_mixed("s", t));
    ASSERT(9, sum_mixed("m", md));
    ASSERT(5, sum_mixed("L", lg));
    ASSERT(1000000000000L + 40 + 12 + 9 + 5 + 31, sum_mixed("lpsmLid", 1000000000000L, &x, t, md, lg, 1, 3.0));
    ASSERT(18, count_twice(3, 1, 2, 3));
    ASSERT(10, outer_sum(4, 1, 2, 3, 4));
    char buf[64];
    format(buf, "%d-%s-%c", 42, "ab", 'z');
    ASSERT(0, strcmp(buf, "42-ab-z"));
    format(buf, "%.2f|%5d|%-3x|", 3.14159, 7, 255);
    ASSERT(0, strcmp(buf, "3.14|    7|ff |"));
    snprintf(buf, sizeof buf, "%ld %u", -5L, 3u);
    ASSERT(0, strcmp(buf, "-5 3"));
    ASSERT(2, (int)avg(3, 1.0, 2.0, 3.0));
    ASSERT(25, (int)(avg(2, 2.0, 3.0) * 10));
    float f = 1.5f;
    ASSERT(15, sum_mixed("d", f));
    char c = 3;
    short sh = 4;
    ASSERT(7, sum_ints(2, c, sh));
    return test_done();
}
