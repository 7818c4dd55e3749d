/* A goto that leaves the scope of a VLA frees it, as leaving its block does
 * (C11 6.2.4p7: its lifetime ends; 6.8.6.1p1: a goto never enters such a
 * scope, so the VLAs live at the label are a prefix of those at the goto).
 * A loop made of a backward goto over a VLA declaration must not grow the
 * stack. From gcc.c-torture/execute/vla-dealloc-1.c (the label in an inner
 * block) and 20040811-1.c, which overflowed the stack under phicc: each loop
 * here would leak about 80 MB. */
#include "test.h"

static void *volatile p;

/* Backward goto to before the declaration, in the same block. */
static long backward(void) {
    int n = 0;
    long sum = 0;
lab:;
    int x[n % 100 + 1000];
    x[0] = 1;
    x[n % 100] = 2;
    p = x;
    sum += x[0] + x[n % 100];
    n++;
    if (n < 20000)
        goto lab;
    return sum;
}

/* Backward goto to a label in an inner block before the declaration. */
static long inner_label(void) {
    int n = 0;
    long sum = 0;
    if (0) {
    lab:;
    }
    int x[n % 100 + 1000];
    x[n % 100] = 3;
    p = x;
    sum += x[n % 100];
    n++;
    if (n < 20000)
        goto lab;
    return sum;
}

/* Forward goto out of an inner block with a VLA, to a label that loops back. */
static long forward(void) {
    int n = 0;
    long sum = 0;
again:
    {
        int y[n % 50 + 1000];
        y[0] = n;
        p = y;
        sum += y[0] % 7;
        if (n++ < 20000)
            goto out;
        return sum;
    }
out:
    goto again;
}

/* Nested VLA scopes: the goto frees the inner one only. */
static int nested(int m) {
    int outer[m];
    outer[0] = 7;
    outer[m - 1] = 9;
    int k = 0;
top:
    {
        int inner[m + k % 10];
        inner[0] = k;
        p = inner;
        if (++k < 20000)
            goto top;
    }
    return outer[0] * 10 + outer[m - 1];
}

int main(void) {
    ASSERT(60200, backward());
    ASSERT(60000, inner_label());
    ASSERT(59998, forward());
    ASSERT(79, nested(1000));
    return test_done();
}
