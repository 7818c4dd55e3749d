/* GNU variably modified struct and union members (declared in a function):
   sizes and offsets computed when the definition is reached (gcc's
   place_field rule at run time), members after a variable-size one,
   arrays of and pointers to such records, assignment (a copy of the
   run-time size), nesting, packed records, pointers to VLAs as members,
   and offsetof with run-time indices (gcc.c-torture/execute 20040423-1,
   20041218-2, 20070919-1, pr41935, pr82210, align-nest). */
#include "test.h"

static int size_at_definition(int n) {
    struct s { char b[n]; } __attribute__((packed));
    n++;
    return sizeof(struct s);
}

static int typedef_size(int i) {
    typedef struct {
        int c[i + 2];
    } c;
    return sizeof(c);
}

static long layout(int n, int m, int which) {
    struct S { char c; int a[n]; short h; double d[m]; char e; };
    switch (which) {
    case 0: return sizeof(struct S);
    case 1: return __alignof__(struct S);
    case 2: return __builtin_offsetof(struct S, h);
    case 3: return __builtin_offsetof(struct S, d);
    case 4: return __builtin_offsetof(struct S, e);
    case 5: return __builtin_offsetof(struct S, d[m - 1]);
    }
    return -1;
}

static long packed_layout(int n, int which) {
    struct __attribute__((packed)) P { char c; int a[n]; int i; } pk;
    pk.i = 9;
    pk.a[0] = 3;
    pk.c = 1;
    switch (which) {
    case 0: return sizeof pk;
    case 1: return __builtin_offsetof(struct P, i);
    case 2: return pk.i + pk.a[0] + pk.c;
    }
    return -1;
}

static int packed_aligned(int n) {
    struct S {
        int i[n];
        unsigned int b : 1;
        int i2;
    } __attribute__((packed)) __attribute__((aligned(4)));
    struct S s;
    s.i2 = 7;
    s.i[n - 1] = 3;
    return s.i2 * 100 + s.i[n - 1] * 10000 + sizeof s;
}

static int vla_pointer_member(int n) {
    int a[3][n];
    struct S { int (*p)[n]; int k; } s = {a, 5};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < n; j++)
            a[i][j] = i * 10 + j;
    s.p = s.p + 1;
    return s.p[1][n - 1] + (int)sizeof(*s.p) * 100 + s.k * 1000;
}

static long union_size(int n, int m) {
    union U { char x[n]; long l; int y[m]; } u;
    u.l = 0;
    u.x[0] = 5;
    return sizeof(union U) * 10 + u.l;
}

static long offset_2d(int n, int i, int j) {
    typedef int T[n];
    struct S { int a; T b[n]; };
    return __builtin_offsetof(struct S, b[i][j]);
}

static long elements(int n, int m) {
    struct S { char c; int a[n]; short h; double d[m]; char e; } s[3], *p = s;
    for (int i = 0; i < 3; i++) {
        s[i].c = i;
        s[i].h = 10 * i;
        s[i].e = 7;
        for (int j = 0; j < n; j++)
            s[i].a[j] = i * 100 + j;
        for (int j = 0; j < m; j++)
            s[i].d[j] = j + 0.5;
    }
    p[1] = s[2];
    long r = s[1].c + s[1].a[n - 1] + s[1].h + (long)(s[1].d[m - 1] * 2) + s[0].e;
    r = r * 1000 + ((char *)&s[2] - (char *)&s[0]);
    return r * 10 + (&p[2] - &p[0]);
}

static int copy_through_stmt_expr(void *x, int y) {
    struct S { char w[y]; } *p = x, a;
    a = ({
        struct S b;
        b = p[2];
        p[3] = b;
    });
    return a.w[0] * 100 + p[3].w[1] * 10 + sizeof a;
}

static int nested(int n) {
    struct S { int a[n]; int b; } s;
    struct T { char c; struct S s; char d; } t;
    t.s.b = 4;
    t.c = 2;
    t.d = 3;
    t.s.a[n - 1] = 6;
    s = t.s;
    return s.b * 1000 + s.a[n - 1] * 100 + t.c * 10 + t.d + 10000 * (int)sizeof(struct T);
}

static int aligned_elements(int size) {
    struct S {
        __attribute__((aligned(16))) struct T { short c; } a[size];
        int b[size];
    } s;
    for (int i = 0; i < size; i++)
        s.a[i].c = 0x1234;
    for (int i = 0; i < size; i++)
        s.b[i] = i;
    int bad = 0;
    for (int i = 0; i < size; i++)
        bad += s.a[i].c != 0x1234 || s.b[i] != i;
    return bad * 1000 + sizeof s;
}

int main(void) {
    ASSERT(123, size_at_definition(123));
    ASSERT(88, typedef_size(20));
    ASSERT(48, layout(3, 2, 0));
    ASSERT(8, layout(3, 2, 1));
    ASSERT(16, layout(3, 2, 2));
    ASSERT(24, layout(3, 2, 3));
    ASSERT(40, layout(3, 2, 4));
    ASSERT(32, layout(3, 2, 5));
    ASSERT(64, layout(1, 5, 0));
    ASSERT(56, layout(1, 5, 4));
    ASSERT(17, packed_layout(3, 0));
    ASSERT(13, packed_layout(3, 1));
    ASSERT(13, packed_layout(3, 2));
    ASSERT(30716, packed_aligned(2));
    ASSERT(30720, packed_aligned(3));
    ASSERT(6623, vla_pointer_member(4));
    ASSERT(5821, vla_pointer_member(2));
    ASSERT(85, union_size(3, 2));
    ASSERT(245, union_size(21, 2));
    ASSERT(4 + (5 * 2 + 3) * 4, offset_2d(5, 2, 3));
    ASSERT(4 + (5 * 5 + 5) * 4, offset_2d(5, 5, 5));
    ASSERT(2 + 202 + 20 + 3 + 7, elements(3, 2) / 10000);
    ASSERT(96, elements(3, 2) / 10 % 1000);
    ASSERT(2, elements(3, 2) % 10);
    ASSERT(128, elements(1, 5) / 10 % 1000);
    char buf[4][8] = {"abcdefg", "ABCDEFG", "zyxwvut", "ZYXWVUT"};
    ASSERT('z' * 100 + 'y' * 10 + 8, copy_through_stmt_expr(buf, 8));
    ASSERT('z', buf[3][0]);
    ASSERT(4623, nested(3) % 10000);
    ASSERT(24, nested(3) / 10000);
    ASSERT(96, aligned_elements(15));
    ASSERT(16, aligned_elements(1));
    return test_done();
}
