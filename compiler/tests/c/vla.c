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

int main(void) {
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
