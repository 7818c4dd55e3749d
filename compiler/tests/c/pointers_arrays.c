/* C11 6.5.2.1, 6.5.6, 6.5.3.2: arrays, pointer arithmetic, address-of, multi-dimensional arrays. */
#include "test.h"

static int sum(int *a, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
static void fill(int m[][3], int rows) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < 3; c++)
            m[r][c] = r * 10 + c;
}
static void inc(int *p) { (*p)++; }
static int *pick(int *a, int *b, int first) { return first ? a : b; }

int garr[4] = {1, 2, 3, 4};
int *gp = garr + 1;

int main(void) {
    int a[5] = {1, 2, 3, 4, 5};
    ASSERT(15, sum(a, 5));
    ASSERT(3, *(a + 2));
    ASSERT(3, 2[a]);
    int *p = a;
    ASSERT(2, p[1]);
    p += 3;
    ASSERT(4, *p);
    p--;
    ASSERT(3, *p);
    ASSERT(2, p - a);
    ASSERT(-2, a - p);
    ASSERT(1, p > a);
    ASSERT(1, p != a);
    ASSERT(20, sizeof(a));
    ASSERT(8, sizeof(p));
    ASSERT(1, &a[4] - &a[3]);
    int m[2][3];
    fill(m, 2);
    ASSERT(12, m[1][2]);
    ASSERT(11, *(*(m + 1) + 1));
    ASSERT(12, sizeof(m[0]));
    int (*row)[3] = m;
    row++;
    ASSERT(10, (*row)[0]);
    int x = 5;
    int *px = &x;
    int **ppx = &px;
    **ppx = 6;
    ASSERT(6, x);
    inc(&x);
    ASSERT(7, x);
    inc(*ppx);
    ASSERT(8, x);
    int y = 1;
    *pick(&x, &y, 0) = 9;
    ASSERT(9, y);
    ASSERT(2, *gp);
    gp[2] = 40;
    ASSERT(40, garr[3]);
    char buf[4] = {1, 2, 3, 4};
    short *sp = (short *)buf;
    ASSERT(0x0201, sp[0]);
    void *vp = buf;
    ASSERT(3, *((char *)vp + 2));
    long la[3] = {10, 20, 30};
    long *lp = la;
    ASSERT(20, *++lp);
    ASSERT(30, lp[1]);
    ASSERT(8, (char *)(lp + 1) - (char *)lp);
    int *null = 0;
    ASSERT(1, null == 0);
    ASSERT(0, !p);
    ASSERT(1, !null);
    int cube[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}};
    ASSERT(7, cube[1][1][0]);
    ASSERT(32, sizeof(cube));
    int idx = 1;
    a[idx++] = 2;
    ASSERT(2, a[1]);
    ASSERT(2, idx);
    int *q = &a[0];
    *q++ = 100;
    ASSERT(100, a[0]);
    ASSERT(2, *q);
    struct { int v[3]; } s = {{7, 8, 9}};
    ASSERT(9, s.v[2]);
    int *sv = s.v;
    ASSERT(8, sv[1]);
    return test_done();
}
