/* ABI interop, scalars: every integer width (narrow ones must arrive
 * extended as the ABI says), __int128 in register pairs, split between the
 * last register and the stack, and on the stack, float and double in FP
 * registers until they run out, long double, stack arguments, and every
 * return type, in both call directions (SIDE_MAIN and SIDE_LIB are compiled
 * by different compilers; abi_interop.rs explains the builds). */
#include <stdio.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

static void show128(const char *what, i128 v) {
    printf("%s %016llx%016llx\n", what, (unsigned long long)((u128)v >> 64), (unsigned long long)v);
}

/* Defined by SIDE_LIB, called by SIDE_MAIN. */
long narrow(char c, signed char sc, unsigned char uc, short s, unsigned short us, int i, unsigned u, _Bool b);
long widen(unsigned u, unsigned short us, signed char sc, unsigned v);
long many_ints(long a, int b, i128 c, long d, long e, long f, i128 g, int h, i128 k, unsigned l);
double many_floats(float a, double b, float c, double d, double e, double f, double g, double h, float i, double j,
                   float k, double l, long m);
long double ld_args(int a, long double b, long c, long double d, double e);
signed char ret_i8(int x);
unsigned char ret_u8(int x);
short ret_i16(int x);
unsigned short ret_u16(int x);
unsigned ret_u32(int x);
int ret_i32(int x);
_Bool ret_bool(int x);
i128 ret_i128(long x);
u128 ret_u128(long x);
float ret_f32(float x);
double ret_f64(double x);
long double ret_ld(double x);
void lib_calls_main(void);

/* Defined by SIDE_MAIN, called back by SIDE_LIB. */
long cb_narrow(char c, signed char sc, unsigned char uc, short s, unsigned short us, int i, unsigned u, _Bool b);
long cb_many_ints(long a, int b, i128 c, long d, long e, long f, i128 g, int h, i128 k, unsigned l);
double cb_many_floats(float a, double b, float c, double d, double e, double f, double g, double h, float i, double j,
                      float k, double l, long m);
long double cb_ld_args(int a, long double b, long c, long double d, double e);
unsigned cb_ret_u32(int x);
short cb_ret_i16(int x);
unsigned char cb_ret_u8(int x);
i128 cb_ret_i128(long x);
float cb_ret_f32(float x);
long double cb_ret_ld(double x);

#define NARROW_BODY                                                                                                   \
    printf("narrow %d %d %d %d %d %d %u %d\n", c, sc, uc, s, us, i, u, b);                                             \
    return (long)c + sc + uc + s + us + i + (long)u + b;
#define MANY_INTS_BODY                                                                                                 \
    printf("many_ints %ld %d %ld %ld %ld %d %u\n", a, b, d, e, f, h, l);                                               \
    show128("  c", c);                                                                                                 \
    show128("  g", g);                                                                                                 \
    show128("  k", k);                                                                                                 \
    return a + b + (long)c + d + e + f + (long)(g >> 64) + h + (long)k + l;
#define MANY_FLOATS_BODY                                                                                               \
    printf("many_floats %g %g %g %g %g %g %g %g %g %g %g %g %ld\n", a, b, c, d, e, f, g, h, i, j, k, l, m);            \
    return a + b + c + d + e + f + g + h + i + j + k + l + m;
#define LD_ARGS_BODY                                                                                                   \
    printf("ld_args %d %Lg %ld %Lg %g\n", a, b, c, d, e);                                                              \
    return b * d + a + c + e;

#ifdef SIDE_LIB
long narrow(char c, signed char sc, unsigned char uc, short s, unsigned short us, int i, unsigned u, _Bool b) {
    NARROW_BODY
}
/* gcc relies on the extension here: (int)u is u's register as it came. */
long widen(unsigned u, unsigned short us, signed char sc, unsigned v) {
    return (long)(int)u * 1000 + us + sc + (long)(int)(v + 1);
}
long many_ints(long a, int b, i128 c, long d, long e, long f, i128 g, int h, i128 k, unsigned l) { MANY_INTS_BODY }
double many_floats(float a, double b, float c, double d, double e, double f, double g, double h, float i, double j,
                   float k, double l, long m) {
    MANY_FLOATS_BODY
}
long double ld_args(int a, long double b, long c, long double d, double e) { LD_ARGS_BODY }
signed char ret_i8(int x) { return (signed char)(x * 3); }
unsigned char ret_u8(int x) { return (unsigned char)(x * 3); }
short ret_i16(int x) { return (short)(x * 1000); }
unsigned short ret_u16(int x) { return (unsigned short)(x * 1000); }
unsigned ret_u32(int x) { return (unsigned)x * 3000000000u; }
int ret_i32(int x) { return x * -100000; }
_Bool ret_bool(int x) { return x > 2; }
i128 ret_i128(long x) { return ((i128)x << 70) - 5; }
u128 ret_u128(long x) { return ((u128)x << 100) + 9; }
float ret_f32(float x) { return x * 2.5f; }
double ret_f64(double x) { return x / 4; }
long double ret_ld(double x) { return (long double)x * 3; }

void lib_calls_main(void) {
    printf("cb %ld\n", cb_narrow(-5, -6, 250, -7000, 60000, -8, 4000000000u, 1));
    printf("cb %ld\n", cb_many_ints(-1, 2, (i128)-3 << 64, 4, 5, 6, (i128)7 << 66, 8, (i128)-9, 4294967295u));
    printf("cb %g\n", cb_many_floats(1.5f, 2.5, 3.5f, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5f, 10.5, 11.5f, 12.5, 13));
    printf("cb %Lg\n", cb_ld_args(3, 1.5L, -4, -2.25L, 0.125));
    printf("cb %u %d %d\n", cb_ret_u32(3), cb_ret_i16(-4), cb_ret_u8(300));
    show128("cb", cb_ret_i128(-3));
    printf("cb %g %Lg\n", cb_ret_f32(1.25f), cb_ret_ld(-0.75));
    /* Use the narrow results in 64-bit arithmetic: relies on the extension. */
    long sum = 0;
    sum += cb_ret_u32(5);
    sum += cb_ret_i16(7);
    sum += cb_ret_u8(-1);
    printf("cb sum %ld\n", sum);
    printf("cb widened %ld %ld\n", (long)(int)cb_ret_u32(5), (long)(int)cb_ret_u32(1) + cb_ret_i16(3));
}
#endif

#ifdef SIDE_MAIN
long cb_narrow(char c, signed char sc, unsigned char uc, short s, unsigned short us, int i, unsigned u, _Bool b) {
    NARROW_BODY
}
long cb_many_ints(long a, int b, i128 c, long d, long e, long f, i128 g, int h, i128 k, unsigned l) {
    MANY_INTS_BODY
}
double cb_many_floats(float a, double b, float c, double d, double e, double f, double g, double h, float i, double j,
                      float k, double l, long m) {
    MANY_FLOATS_BODY
}
long double cb_ld_args(int a, long double b, long c, long double d, double e) { LD_ARGS_BODY }
unsigned cb_ret_u32(int x) { return (unsigned)x * 3000000000u; }
short cb_ret_i16(int x) { return (short)(x * -10000); }
unsigned char cb_ret_u8(int x) { return (unsigned char)x; }
i128 cb_ret_i128(long x) { return (i128)x * 1000000000000000000 * 1000; }
float cb_ret_f32(float x) { return x - 0.5f; }
long double cb_ret_ld(double x) { return (long double)x / 2; }

int main(void) {
    printf("%ld\n", narrow('A', -100, 200, -30000, 65000, -123456, 3000000000u, 1));
    printf("%ld\n", many_ints(1, -2, (i128)3 << 64 | 4, 5, 6, 7, -((i128)8 << 64), -9, (i128)10 << 100, 4000000000u));
    printf("%g\n", many_floats(0.5f, 1.25, -2.5f, 3.75, 4, 5, 6, 7, 8.5f, -9.25, 10, 11.5, -12));
    printf("%Lg\n", ld_args(-1, 2.5L, 3, -0.5L, 8));
    printf("%d %d %d %d %u %d %d\n", ret_i8(50), ret_u8(100), ret_i16(40), ret_u16(70), ret_u32(3), ret_i32(30000),
           ret_bool(5));
    show128("i128", ret_i128(-7));
    show128("u128", (i128)ret_u128(11));
    printf("%g %g %Lg\n", ret_f32(3.0f), ret_f64(-10), ret_ld(1.5));
    /* Narrow results used in 64-bit arithmetic without a cast. */
    long sum = 0;
    sum += ret_u32(2);
    sum += ret_i8(45);
    sum += ret_u16(90);
    sum += ret_i32(-50000);
    printf("sum %ld\n", sum);
    printf("widen %ld\n", widen(4000000000u, 65535, -3, 4294967294u));
    lib_calls_main();
    return 0;
}
#endif
