/* C11 6.7: declarations, storage classes, typedefs, scopes, qualifiers, sizes. */
#include "test.h"

int global_a;
int global_b = 5;
static int file_static = 7;
extern int global_b;
int tentative;
int tentative;
typedef int myint;
typedef struct { int x, y; } point;
typedef int arr3[3];
typedef int (*binop)(int, int);
enum color { RED, GREEN = 5, BLUE, LAST = BLUE + 10 };
enum { ANON_A = -3, ANON_B };
_Static_assert(sizeof(int) == 4, "int is 4 bytes");
static const int table[] = {10, 20, 30, 40};
_Thread_local int tls_var = 3;
long long ll_global = -1;
unsigned char uc_global = 200;
_Alignas(16) char aligned_buf[3];

static int add(int a, int b) { return a + b; }
static int counter(void) {
    static int n;
    return ++n;
}

int main(void) {
    ASSERT(0, global_a);
    ASSERT(5, global_b);
    ASSERT(7, file_static);
    ASSERT(0, tentative);
    myint m = 12;
    ASSERT(12, m);
    point p = {1, 2};
    ASSERT(3, p.x + p.y);
    arr3 a3 = {4, 5, 6};
    ASSERT(15, a3[0] + a3[1] + a3[2]);
    ASSERT(12, sizeof(arr3));
    binop op = add;
    ASSERT(9, op(4, 5));
    ASSERT(0, RED);
    ASSERT(5, GREEN);
    ASSERT(6, BLUE);
    ASSERT(16, LAST);
    ASSERT(-3, ANON_A);
    ASSERT(-2, ANON_B);
    enum color c = BLUE;
    ASSERT(6, c);
    ASSERT(4, sizeof(c));
    ASSERT(4, sizeof(table) / sizeof(table[0]));
    ASSERT(30, table[2]);
    ASSERT(3, tls_var);
    ASSERT(-1, ll_global);
    ASSERT(200, uc_global);
    ASSERT(0, (long)aligned_buf % 16);
    ASSERT(1, counter());
    ASSERT(2, counter());
    ASSERT(3, counter());
    {
        int global_a = 42;
        ASSERT(42, global_a);
        {
            int global_a = 43;
            ASSERT(43, global_a);
        }
        ASSERT(42, global_a);
    }
    ASSERT(0, global_a);
    int x = 1, y = x + 1, z = y * 3;
    ASSERT(6, z);
    const int ci = 8;
    ASSERT(8, ci);
    volatile int vi = 9;
    vi = vi + 1;
    ASSERT(10, vi);
    register int ri = 11;
    ASSERT(11, ri);
    int arr[2][3];
    ASSERT(24, sizeof(arr));
    ASSERT(12, sizeof(arr[0]));
    ASSERT(8, sizeof(int *));
    ASSERT(1, sizeof(char));
    ASSERT(2, sizeof(short));
    ASSERT(8, sizeof(long long));
    ASSERT(16, sizeof(long double));
    ASSERT(1, sizeof(_Bool));
    ASSERT(16, _Alignof(long double));
    ASSERT(8, _Alignof(double));
    int (*pa)[3] = &a3;
    ASSERT(5, (*pa)[1]);
    char *strs[] = {"ab", "cde"};
    ASSERT('d', strs[1][1]);
    for (int i = 0; i < 1; i++) {
        int i = 5;
        ASSERT(5, i);
    }
    return test_done();
}
