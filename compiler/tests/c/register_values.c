/* Values the register allocator keeps in registers (RISC-V keeps them in
 * s1..s11 and fs0..fs11, 32-bit ones sign-extended, 8- and 16-bit ones
 * extended by their signedness): narrow types that wrap, unsigned 32-bit
 * values with the top bit set (compared, shifted, widened), immediates at
 * the edges of their ranges (subtracting INT64_MIN once crashed the
 * RISC-V backend), floats and doubles live across calls, conversions
 * between registers of both kinds. */
#include "test.h"

typedef unsigned long long u64;

static int sub_min(long long x) { return x - (-9223372036854775807LL - 1) == (long long)((u64)x + 0x8000000000000000ULL); }
static long long sub_imm(long long x) { return x - 2048 - (-2048) - 2047 - (-2047); }
static int narrow(unsigned char a, signed char b, unsigned short c, short d) {
    unsigned char a2 = a + 200;
    signed char b2 = b * 3;
    unsigned short c2 = c << 3;
    short d2 = d - 30000;
    return a2 + b2 + c2 + d2 + (a2 > 100) + (b2 < 0) + (b2 >> 1) + (c2 >> 14);
}
static long long u32ops(unsigned x, unsigned y) {
    unsigned s = x >> 28;
    unsigned t = (x ^ y) >> 1;
    unsigned long long w = x;
    return (x > y) * 1000 + (x < 5u) * 100 + s + (long long)(t & 0xfff) + (long long)(w >> 31) + (x == 0xF0000001u);
}
static int i32ops(int x, int y) { return (x >> 31) + (x / y) + (x % y) + (x < y) + (x << 4) - (~x); }
static long long shifts(long long x, unsigned long long y) {
    return (x >> 63) + (long long)(y >> 63) + (x << 62) / 4 + (long long)(y >> 1);
}
static double mix(double a, float b, int n) {
    double s = 0;
    float f = b;
    for (int i = 0; i < n; i++) {
        s += a * i - f;
        f = f * 0.5f + (float)i;
    }
    return s + f;
}
static double through_call(double a, float b) {
    double x = a * 2;
    float y = b + 1;
    double z = mix(a, b, 3);
    return x + y + z;
}
static int conv(double d, float f, long long l, unsigned u) {
    int a = (int)d;
    unsigned long long b = (unsigned long long)(d * 1e10);
    float c = (float)l;
    double e = (double)u;
    return a + (int)(b % 1000) + (int)c + (int)(e / 1000000.0) + (int)f;
}
static unsigned char uc_loop(int n) {
    unsigned char c = 250;
    for (int i = 0; i < n; i++) c += 3;
    return c;
}
static short many(int a, int b, int c, int d, int e, int f, int g, int h) {
    /* More live values than registers. */
    int v[16];
    int x0 = a + b, x1 = b + c, x2 = c + d, x3 = d + e, x4 = e + f, x5 = f + g, x6 = g + h, x7 = h + a;
    int x8 = x0 * x1, x9 = x2 * x3, x10 = x4 * x5, x11 = x6 * x7, x12 = x0 - x7, x13 = x1 - x6, x14 = x2 - x5;
    for (int i = 0; i < 16; i++) v[i] = i;
    int s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + x10 + x11 + x12 + x13 + x14;
    for (int i = 0; i < 16; i++) s += v[i] * x8 - x14;
    return (short)s;
}
static int swap_loop(int n) {
    int a = 1, b = 2, c = 3;
    for (int i = 0; i < n; i++) {
        int t = a;
        a = b;
        b = c;
        c = t + i;
    }
    return a * 100 + b * 10 + c;
}

int main(void) {
    ASSERT(1, sub_min(5));
    ASSERT(1, sub_min(-7));
    ASSERT(-7, sub_imm(-7));
    ASSERT(83281, narrow(100, 50, 40000, -10000));
    ASSERT(1000 + 15 + 2047 + 1 + 1, u32ops(0xF0000001u, 0x00000ffeu));
    ASSERT(103, u32ops(3, 4));
    ASSERT(-17, i32ops(-1, 2));
    ASSERT(8070450532247928831LL, shifts(-1, 0xffffffffffffffffULL));
    ASSERT(40, (int)(mix(2.0, 1.5f, 4) * 4));
    ASSERT(6, (int)through_call(1.0, 2.0f));
    ASSERT(4306, conv(3.25, 2.5f, 7, 4294967295u));
    ASSERT(3, uc_loop(3));
    ASSERT(2302, many(1, 2, 3, 4, 5, 6, 7, 8));
    ASSERT(231, swap_loop(1));
    ASSERT(547, swap_loop(5));
    return test_done();
}
