/* GNU vector types (gcc manual, "Using Vector Instructions through Built-in
 * Functions"): vector_size on typedefs and declarations, element-wise
 * arithmetic with gcc's wrap-around element types, scalar broadcast,
 * comparisons giving 0/-1, subscripts, initializers, casts that reinterpret
 * the bytes, __builtin_shuffle, vectors in records and arrays, by-value
 * arguments and results, sizes and alignments. */
#include "test.h"

typedef int v4si __attribute__((vector_size(16)));
typedef unsigned int v4su __attribute__((vector_size(16)));
typedef short v8hi __attribute__((__vector_size__(16)));
typedef unsigned char v8qu __attribute__((vector_size(8)));
typedef signed char v16qi __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef long long v2di __attribute__((vector_size(16)));
typedef long v4di __attribute__((vector_size(32)));
typedef unsigned char v64qu __attribute__((vector_size(64)));
typedef short v2hi __attribute__((vector_size(4)));
typedef int v2si __attribute__((vector_size(8)));

v4si g_i = {1, -2, 3};
v4sf g_f = {0.5f, 1.5f, 2.5f, 3.5f};
static v8qu g_u = {250, 251, 252, 253, 254, 255, 0, 1};
v4si g_arr[3] = {{1, 2, 3, 4}, {5, 6}, [2] = {0, 0, 0, 9}};
int __attribute__((vector_size(8))) g_decl = {7, 8};
static v8hi g_lit = (v8hi){5, 6};

struct rec {
    char c;
    v4si v;
    short s;
    v2df d;
};

union pun {
    v4si v;
    int i[4];
    unsigned char b[16];
};

struct big {
    v64qu bytes;
    int tag;
};

static int calls;

static v4si next_vec(void) {
    calls++;
    return (v4si){calls, calls * 10, calls * 100, calls * 1000};
}

static int next_int(void) {
    calls++;
    return calls;
}

static v4si add4(v4si a, v4si b) { return a + b; }
static v4sf madd(v4sf a, v4sf b, v4sf c) { return a * b + c; }
static v2df twice(v2df d) { return d + d; }
static v4di wide(v4di a, long k) { return a * k - 1; }
static v64qu bump(v64qu b) {
    b[63] = 1;
    return b + 1;
}
static struct rec pass_rec(struct rec r) {
    r.v *= 2;
    r.d -= 0.5;
    return r;
}
static struct big pass_big(struct big b) {
    b.bytes += (unsigned char)b.tag;
    return b;
}
static long sum_many(v2si a, v2si b, v2si c, v2si d, v2si e, v2si f, v2si g, v2si h, v2si i, int tail) {
    v2si t = a + b + c + d + e + f + g + h + i;
    return t[0] * 1000 + t[1] + tail;
}
static v4si *ident(v4si *p) {
    calls++;
    return p;
}

int main(void) {
    /* Sizes and alignments. */
    ASSERT(16, sizeof(v4si));
    ASSERT(8, sizeof(v8qu));
    ASSERT(64, sizeof(v64qu));
    ASSERT(4, sizeof(v2hi));
    ASSERT(16, _Alignof(v4si));
    ASSERT(8, _Alignof(v8qu));
    ASSERT(4, _Alignof(v2hi));
    ASSERT(64, sizeof(struct rec));
    ASSERT(16, __builtin_offsetof(struct rec, v));
    ASSERT(48, __builtin_offsetof(struct rec, d));
    ASSERT(4, sizeof(v4si) / sizeof(int));
    ASSERT(8, sizeof g_decl);

    /* Initializers, static and automatic, partial and designated. */
    ASSERT(-2, g_i[1]);
    ASSERT(0, g_i[3]);
    ASSERT(6, g_arr[1][1]);
    ASSERT(0, g_arr[1][3]);
    ASSERT(9, g_arr[2][3]);
    ASSERT(0, g_arr[2][0]);
    ASSERT(8, g_decl[1]);
    ASSERT(6, g_lit[1]);
    ASSERT(0, g_lit[7]);
    int seven = 7;
    v4si a = {seven, 2 * seven, 3, -seven};
    ASSERT(14, a[1]);
    ASSERT(-7, a[3]);
    v4si z = {};
    ASSERT(0, z[0] + z[1] + z[2] + z[3]);
    v4si copy = a;
    ASSERT(3, copy[2]);

    /* Element-wise arithmetic. */
    v4si b = {3, -5, 7, 2};
    v4si r = a + b;
    ASSERT(10, r[0]);
    ASSERT(9, r[1]);
    r = a - b;
    ASSERT(19, r[1]);
    r = a * b;
    ASSERT(-70, r[1]);
    r = a / b;
    ASSERT(2, r[0]);
    ASSERT(-2, r[1]);
    ASSERT(-3, r[3]);
    r = a % b;
    ASSERT(1, r[0]);
    ASSERT(4, r[1]);
    ASSERT(-1, r[3]);
    r = a & b;
    ASSERT(3, r[0]);
    r = a | b;
    ASSERT(-1, r[1]);
    r = a ^ b;
    ASSERT(4, r[0]);
    r = -a;
    ASSERT(-14, r[1]);
    r = ~a;
    ASSERT(-8, r[0]);
    r = +a;
    ASSERT(3, r[2]);
    r = a << (v4si){3, 1, 0, 2};
    ASSERT(56, r[0]);
    ASSERT(28, r[1]);
    r = a >> 1;
    ASSERT(7, r[1]);
    ASSERT(-4, r[3]);
    v4su ua = {0xffffffffu, 8, 1, 0x80000000u};
    v4su ur = ua >> 1;
    ASSERT(0x7fffffff, ur[0]);
    ASSERT(0x40000000, ur[3]);
    ur = ua + 1;
    ASSERT(0, ur[0]);
    ur = -ua / 11;
    ASSERT(0, ur[0]);
    ASSERT(390451571, ur[1]);

    /* Narrow elements wrap at their own width. */
    v8qu u = g_u + 10;
    ASSERT(4, u[0]);
    ASSERT(9, u[5]);
    ASSERT(11, u[7]);
    v8qu half = g_u / 2;
    ASSERT(125, half[0]);
    v16qi s = {-128, 127, 100, -100};
    v16qi sr = s * 2;
    ASSERT(0, sr[0]);
    ASSERT(-2, sr[1]);
    ASSERT(-56, sr[2]);
    sr = s % (signed char)-128;
    ASSERT(0, sr[0]);
    ASSERT(127, sr[1]);
    v8hi h = {1000, -1000, 32767, 2, 4, 6, 8, 10};
    v8hi hr = h * 100;
    ASSERT(-31072, hr[0]);
    ASSERT(-100, hr[2]);
    hr = 2 << (h & 7);
    ASSERT(8, hr[3]);
    hr = 1000 / h;
    ASSERT(1, hr[0]);
    ASSERT(250, hr[4]);

    /* Scalar operands are broadcast, on either side. */
    r = 10 - b;
    ASSERT(7, r[0]);
    ASSERT(15, r[1]);
    short sh = 3;
    hr = h + sh;
    ASSERT(1003, hr[0]);
    signed char sc = -1;
    hr = sc * h;
    ASSERT(-1000, hr[0]);
    calls = 0;
    r = b * next_int();
    ASSERT(1, calls);
    ASSERT(-5, r[1]);
    long n = 2;
    r = (a & 0xff) << n;
    ASSERT(28, r[0]);

    /* Floating elements. */
    v4sf f = g_f * 2 + 1;
    ASSERT(2, (int)f[0]);
    ASSERT(8, (int)f[3]);
    v4sf fm = madd(f, g_f, (v4sf){1, 1, 1, 1});
    ASSERT(2, (int)fm[0]);
    ASSERT(29, (int)fm[3]);
    f = 1.0 / g_f;
    ASSERT(2000, (int)(f[0] * 1000));
    ASSERT(285, (int)(f[3] * 1000));
    v2df d = {1.25, -3.5};
    v2df dt = twice(d);
    ASSERT(-7, (int)dt[1]);
    dt = d / 0.5 - 1;
    ASSERT(-8, (int)dt[1]);
    f = -g_f;
    ASSERT(-1500, (int)(f[1] * 1000));
    float fl = 2.0f;
    f = g_f * fl;
    ASSERT(7, (int)f[3]);

    /* Comparisons give -1 where they hold, 0 elsewhere. */
    v4si c = a > b;
    ASSERT(-1, c[0]);
    ASSERT(-1, c[1]);
    ASSERT(0, c[3]);
    c = a == 3;
    ASSERT(0, c[0]);
    ASSERT(-1, c[2]);
    v4su uc = ua < 9;
    ASSERT(0, uc[0]);
    ASSERT(0xffffffffu, uc[1]);
    v4si fc = g_f >= 1.5f;
    ASSERT(0, fc[0]);
    ASSERT(-1, fc[1]);
    v2di dc = d != 1.25;
    ASSERT(0, dc[0]);
    ASSERT(-1, dc[1]);
    v8qu qc = g_u <= 252;
    ASSERT(255, qc[0]);
    ASSERT(0, qc[3]);
    ASSERT(255, qc[6]);
    v4si mask = a > 5;
    v4si sel = (a & mask) | (b & ~mask);
    ASSERT(7, sel[0]);
    ASSERT(7, sel[2]);

    /* Subscripts as lvalues and rvalues, constant and variable. */
    v4si w = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++)
        w[i] = i * i;
    ASSERT(9, w[3]);
    w[1] += 5;
    w[2]++;
    ASSERT(6, w[1]);
    ASSERT(5, w[2]);
    int *pw = &w[3];
    *pw = 42;
    ASSERT(42, w[3]);
    int idx = 2;
    ASSERT(5, w[idx]);
    ASSERT(20, next_vec()[1] - 0 * idx);
    ASSERT(300, next_vec()[idx]);
    ASSERT(30, ((v4si){10, 20, 30, 40})[idx]);
    ASSERT(10, (a + b)[idx + 1] + 15);

    /* Compound assignment, increments, assignment values. */
    v4si acc = {1, 2, 3, 4};
    acc += b;
    acc *= 2;
    acc -= 1;
    ASSERT(7, acc[0]);
    ASSERT(-7, acc[1]);
    acc >>= 1;
    ASSERT(-4, acc[1]);
    acc *= (v4si){2, 4, 8, 16};
    ASSERT(-16, acc[1]);
    acc %= 5;
    ASSERT(-1, acc[1]);
    acc &= 0xff;
    ASSERT(255, acc[1]);
    v4si inc = {1, 2, 3, 4};
    v4si old = inc++;
    ASSERT(1, old[0]);
    ASSERT(2, inc[0]);
    ++inc;
    --inc;
    inc--;
    ASSERT(1, inc[0]);
    v4si arr[3] = {{1}, {2}, {3}};
    calls = 0;
    *ident(&arr[1]) += 10;
    ASSERT(1, calls);
    ASSERT(12, arr[1][0]);
    v4si x1, x2;
    x1 = x2 = a;
    ASSERT(14, x1[1] + x2[1] - 14);

    /* Casts reinterpret the bytes between vectors, and to or from integers
     * of the same size. */
    union pun p;
    p.v = (v4si){1, 2, 3, 4};
    ASSERT(3, p.i[2]);
    v16qi bytes = (v16qi)p.v;
    ASSERT(1, bytes[0]);
    ASSERT(0, bytes[1]);
    ASSERT(2, bytes[4]);
    v4sf asf = (v4sf)(v4si){0x3f800000, 0x40000000, 0, 0};
    ASSERT(1, (int)asf[0]);
    ASSERT(2, (int)asf[1]);
    long long word = (long long)(v2si){1, 2};
    ASSERT(0x200000001LL, word);
    v2si back = (v2si)0x700000003LL;
    ASSERT(3, back[0]);
    ASSERT(7, back[1]);
    int small = (int)(v2hi){-1, 1};
    ASSERT(0x1ffff, small);
    v4su same = (v4su)a;
    ASSERT(14, same[1]);

    /* __builtin_shuffle with one and two operands. */
    v4si sh1 = __builtin_shuffle(a, (v4si){3, 2, 1, 0});
    ASSERT(-7, sh1[0]);
    ASSERT(7, sh1[3]);
    v4si sh2 = __builtin_shuffle(a, b, (v4si){0, 4, 7, 9});
    ASSERT(7, sh2[0]);
    ASSERT(3, sh2[1]);
    ASSERT(2, sh2[2]);
    ASSERT(14, sh2[3]);
    v2df dsh = __builtin_shuffle(d, (v2di){10000000001LL, 0});
    ASSERT(-3, (int)dsh[0]);

    /* Vectors in records, arrays and unions, passed and returned by value. */
    struct rec rr = {1, {1, 2, 3, 4}, 2, {0.5, 1.5}};
    struct rec rp = pass_rec(rr);
    ASSERT(8, rp.v[3]);
    ASSERT(1, (int)rp.d[1]);
    ASSERT(2, rp.s);
    ASSERT(1, rr.v[0]);
    r = add4(a, b);
    ASSERT(9, r[1]);
    v4di wv = wide((v4di){1, 2, 3, 4}, 3);
    ASSERT(11, wv[3]);
    v64qu big = {};
    big = bump(big);
    ASSERT(1, big[0]);
    ASSERT(2, big[63]);
    struct big bb = {{1, 2, 3}, 5};
    struct big bc = pass_big(bb);
    ASSERT(8, bc.bytes[2]);
    ASSERT(5, bc.bytes[10]);
    ASSERT(5, bc.tag);
    ASSERT(46036, sum_many((v2si){1, 1}, (v2si){2, 2}, (v2si){3, 3}, (v2si){4, 4}, (v2si){5, 5},
                           (v2si){6, 6}, (v2si){7, 7}, (v2si){8, 8}, (v2si){0, 5000}, 5000));
    calls = 0;
    r = next_vec() + next_vec();
    ASSERT(2, calls);
    ASSERT(30, r[1]);
    int k = 1;
    v4si choose = k ? a : b;
    ASSERT(7, choose[0]);
    choose = (k--, !k) ? b : a;
    ASSERT(3, choose[0]);
    v4si st = ({ v4si t = a * 2; t + 1; });
    ASSERT(29, st[1]);
    const v4si cv = {5, 6, 7, 8};
    ASSERT(22, (cv + 1)[3] * 2 + cv[0] - 1);
    return test_done();
}
