/* C11 6.7.6.2: variable length arrays: sizeof at run time, loops, parameters, scopes. */
#include "test.h"

static int sum_vla(int n, int a[n]) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

static int matrix_trace(int n, int m[n][n]) {
    int t = 0;
    for (int i = 0; i < n; i++)
        t += m[i][i];
    return t;
}

static long vla_size(int n) {
    char buf[n * 3];
    return sizeof(buf);
}

/* Arrays whose element type is a VLA, static pointers to VLAs, and VLA
   parameters of several dimensions (6.7.6.2; repro-03). */
int last_of_3d(int s, int m[2][3][s]);
int last_of_3d(int s, int m[2][3][s]) { return m[1][2][s - 1] + (int)sizeof m[0]; }

static int middle_fixed(int r, int c) {
    int a[r][2][c];
    for (int i = 0; i < r; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < c; k++)
                a[i][j][k] = i * 100 + j * 10 + k;
    return a[r - 1][1][c - 1] + (int)sizeof a[0] + (int)sizeof(int[2][c]);
}

static int arrays_of_vlas(int h, int w) {
    int a[2][h][w];
    static int (*p)[h][w];
    typedef int T[h];
    T b[3];
    p = &a[1];
    (*p)[h - 1][w - 1] = 42;
    b[2][h - 1] = 5;
    return (int)sizeof *p + a[1][h - 1][w - 1] + (int)sizeof b + b[2][h - 1] + (int)sizeof a;
}

int main(void) {
    ASSERT(60 + 42 + 36 + 5 + 120, arrays_of_vlas(3, 5));
    ASSERT(213 + 32 + 32, middle_fixed(3, 4));
    {
        int m[2][3][4] = {{{0}}};
        m[1][2][3] = 48;
        ASSERT(48 + 48, last_of_3d(4, m));
    }
    int n = 5;
    int a[n];
    ASSERT(20, sizeof(a));
    for (int i = 0; i < n; i++)
        a[i] = i * i;
    ASSERT(30, sum_vla(n, a));
    ASSERT(16, a[4]);
    int m = 3;
    int mat[m][m];
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            mat[i][j] = i * 10 + j;
    ASSERT(33, matrix_trace(m, mat));
    ASSERT(36, sizeof(mat));
    ASSERT(12, sizeof(mat[0]));
    ASSERT(21, vla_size(7));
    ASSERT(0, vla_size(0));
    long total = 0;
    for (int k = 1; k <= 100; k++) {
        char tmp[k];
        tmp[k - 1] = (char)k;
        total += sizeof(tmp) + tmp[k - 1];
    }
    ASSERT(10100, total);
    int rows = 2, cols = 4;
    double (*dyn)[cols];
    double storage[2][4];
    dyn = storage;
    dyn[1][3] = 2.5;
    ASSERT(5, (int)(storage[1][3] * 2));
    ASSERT(32, sizeof(*dyn));
    ASSERT(2, rows);
    return test_done();
}
