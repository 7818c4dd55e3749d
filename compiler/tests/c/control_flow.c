/* C11 6.8.4-6.8.6: if, while, do, for, break, continue, return. */
#include "test.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int early(int x) {
    if (x > 10)
        return 1;
    if (x > 5)
        return 2;
    return 3;
}
static void nothing(int *p) {
    if (*p)
        return;
    *p = 9;
}

int main(void) {
    int i, j, s;
    if (0)
        ASSERT(0, 1);
    else
        ASSERT(1, 1);
    if (1 - 1) s = 1; else if (2) s = 2; else s = 3;
    ASSERT(2, s);
    s = 0;
    for (i = 0; i < 10; i++)
        s += i;
    ASSERT(45, s);
    s = 0;
    i = 0;
    while (i < 5) {
        s += i;
        i++;
    }
    ASSERT(10, s);
    s = 0;
    i = 10;
    do {
        s++;
    } while (i < 5);
    ASSERT(1, s);
    s = 0;
    for (i = 0;; i++) {
        if (i == 7)
            break;
        if (i % 2)
            continue;
        s += i;
    }
    ASSERT(12, s);
    ASSERT(7, i);
    s = 0;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            if (j > i)
                break;
            s++;
        }
    ASSERT(10, s);
    s = 0;
    i = 0;
    while (1) {
        i++;
        if (i < 3)
            continue;
        s += i;
        if (i >= 6)
            break;
    }
    ASSERT(18, s);
    s = 0;
    i = 0;
    do {
        i++;
        if (i == 2)
            continue;
        s += i;
    } while (i < 4);
    ASSERT(8, s);
    ASSERT(55, fib(10));
    ASSERT(1, early(11));
    ASSERT(2, early(6));
    ASSERT(3, early(0));
    int v = 0;
    nothing(&v);
    ASSERT(9, v);
    v = 1;
    nothing(&v);
    ASSERT(1, v);
    s = 0;
    for (int k = 0, m = 10; k < m; k++, m--)
        s += m - k;
    ASSERT(30, s);
    s = 0;
    for (i = 0; i < 3; i++) {
        int t = i * 2;
        s += t;
    }
    ASSERT(6, s);
    i = 0;
    while (i++ < 10)
        ;
    ASSERT(11, i);
    s = 0;
    for (i = 0; i < 100; i++) {
        if (i & 1) continue;
        if (i > 20) break;
        s += i;
    }
    ASSERT(110, s);
    s = 1;
    while (s < 1000)
        s *= 3;
    ASSERT(2187, s);
    return test_done();
}
