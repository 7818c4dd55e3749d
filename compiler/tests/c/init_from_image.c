/* Automatic arrays and structs with long constant initializer lists are
 * copied from a read-only image (lower/init.rs), the non-constant leaves
 * stored after the copy: every element, the zeros between and after the
 * listed ones, floats, -0.0, bit-fields, strings, pointers, designators,
 * a fresh copy on every iteration, and a volatile array left to stores. */
#include "test.h"

struct S { int a; short b[5]; double d; unsigned f : 3; char c[9]; long *p; };
long g = 7;

static int bytes_sum(const void *p, int n) {
    const unsigned char *c = p;
    int s = 0;
    for (int i = 0; i < n; i++) s = s * 31 + c[i];
    return s;
}

int main(void) {
    for (int it = 0; it < 3; it++) {
        int a[4][5] = {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, {-1, -2}, {[3] = 4}};
        short h[6][3][2] = {{{5, 6}, {7}}, {{8, 9}, {10, 11}, {12, 13}}, {{0}}, {{-5, -6}}, {{1, 2}, {3, 4}, {5, 6}}};
        double d[10] = {1.5, 2.5, -0.0, 3e10, 1e-300, 6, 7, 8, 9, 10.25};
        float f[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12.5f, 13, 14, 15, 16};
        struct S s[3] = {{1, {2, 3, 4, 5, 6}, 7.5, 5, "abcdefgh", &g},
                         {it, {it + 1, 2}, 1.0, 3, "x", 0},
                         {9, {8, 7, 6, 5, 4}, -1.0, 7, "zz", &g}};
        long mix[12] = {1, 2, it, 4, 5, 6, it * 3, 8, 9, 10, 11, 12};
        char str[80] = "hello, a string initializer of some length";
        unsigned long long big[9] = {~0ULL, 0x8000000000000000ULL, 1, 2, 3, 4, 5, 6, 7};
        _Bool bb[70] = {1, 0, 1, 1, [60] = 1, [69] = 1};
        ASSERT(1, a[0][0]);
        ASSERT(10, a[1][4]);
        ASSERT(-2, a[2][1]);
        ASSERT(0, a[2][4]);
        ASSERT(4, a[3][3]);
        ASSERT(0, a[3][4]);
        ASSERT(7, h[0][1][0]);
        ASSERT(0, h[0][1][1]);
        ASSERT(13, h[1][2][1]);
        ASSERT(-6, h[3][0][1]);
        ASSERT(6, h[4][2][1]);
        ASSERT(0, h[5][2][1]);
        ASSERT(1025, (int)(d[9] * 100));
        ASSERT(1, 1 / d[2] < 0);
        ASSERT(125, (int)(f[11] * 10));
        ASSERT(1, s[0].p == &g);
        ASSERT(1, s[1].p == 0);
        ASSERT(it, s[1].a);
        ASSERT(it + 1, s[1].b[0]);
        ASSERT(0, s[1].b[4]);
        ASSERT(7, s[2].f);
        ASSERT('h', s[0].c[7]);
        ASSERT(0, s[1].c[8]);
        ASSERT(it * 3, mix[6]);
        ASSERT(12, mix[11]);
        ASSERT('l', str[2]);
        ASSERT(0, str[79]);
        ASSERT(1, big[0] == ~0ULL);
        ASSERT(1, bb[69]);
        ASSERT(0, bb[68]);
        printf("%d %d %d %d %d %d %d\n", bytes_sum(a, sizeof a), bytes_sum(h, sizeof h), bytes_sum(d, sizeof d),
               bytes_sum(f, sizeof f), bytes_sum(mix, sizeof mix), bytes_sum(str, sizeof str), bytes_sum(bb, sizeof bb));
        a[1][1] = 99; /* the next iteration copies the image again */
        mix[0] = 5;
        s[0].c[0] = 'q';
    }
    /* Mostly zeros: zero-filled and stored, no 4 KiB image. */
    int sparse[1024] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, [1000] = 11};
    ASSERT(10, sparse[9]);
    ASSERT(0, sparse[999]);
    ASSERT(11, sparse[1000]);
    ASSERT(0, sparse[1023]);
    volatile int v[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
    ASSERT(20, v[19]);
    return test_done();
}
