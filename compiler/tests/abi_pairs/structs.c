/* ABI interop, structs and unions by value and as return values, in both
 * call directions: one float or double, two floats, float + integer and
 * integer + float after flattening nested structs and arrays (RISC-V
 * LP64D), SSE/INTEGER eightbytes (x86-64), homogeneous aggregates
 * (AArch64), integer structs of odd sizes, unions, structs larger than 16
 * bytes (by reference or in memory), 16-aligned structs, arguments after
 * the FP or integer registers ran out (a struct split between the last
 * register and the stack), and every kind of struct return. A callee owns
 * its copy: changing it changes nothing in the caller. */
#include <stdio.h>
#include <string.h>

struct F { float a; };
struct D { double a; };
struct FF { float a, b; };
struct FD { float a; double b; };
struct DF { double a; float b; };
struct DD { double a[2]; };
struct FI { float a; int b; };
struct DC { double a; signed char b; };
struct IF { int a; float b; };
struct LD { long a; double b; };
struct NEST { struct { float x; } a; float b[1]; };
struct FFF { float a, b, c; };
struct S1 { char c; };
struct S3 { char c[3]; };
struct S7 { char c[7]; };
struct S12 { int a, b, c; };
struct S16 { long a, b; };
union U { float f; int i; };
struct BIG { long a, b, c; };
struct BIGF { double a, b, c; };
struct LDS { long double x; };
struct A16 { __int128 x; };

#define SHOW_ALL                                                                                                       \
    printf(" F %g D %g FF %g %g FD %g %g DF %g %g DD %g %g\n", f.a, d.a, ff.a, ff.b, fd.a, fd.b, df.a, df.b, dd.a[0],  \
           dd.a[1]);                                                                                                   \
    printf(" FI %g %d DC %g %d IF %d %g LD %ld %g NEST %g %g\n", fi.a, fi.b, dc.a, dc.b, ifs.a, ifs.b, ld.a, ld.b,      \
           nest.a.x, nest.b[0]);
#define SHOW_INTS                                                                                                      \
    printf(" FFF %g %g %g S1 %d S3 %d %d %d S7 %s S12 %d %d %d S16 %ld %ld U %d\n", fff.a, fff.b, fff.c, s1.c,          \
           s3.c[0], s3.c[1], s3.c[2], s7.c, s12.a, s12.b, s12.c, s16.a, s16.b, u.i);                                   \
    printf(" BIG %ld %ld %ld BIGF %g %g %g LDS %Lg A16 %lld\n", big.a, big.b, big.c, bigf.a, bigf.b, bigf.c, lds.x,     \
           (long long)a16.x);

#define FLOAT_PARAMS                                                                                                   \
    struct F f, struct D d, struct FF ff, struct FD fd, struct DF df, struct DD dd, struct FI fi, struct DC dc,        \
        struct IF ifs, struct LD ld, struct NEST nest
#define INT_PARAMS                                                                                                     \
    struct FFF fff, struct S1 s1, struct S3 s3, struct S7 s7, struct S12 s12, struct S16 s16, union U u,               \
        struct BIG big, struct BIGF bigf, struct LDS lds, struct A16 a16

/* Float-class structs after 8 doubles: the FP registers ran out. */
#define FP_EXHAUSTED_PARAMS                                                                                            \
    double x0, double x1, double x2, double x3, double x4, double x5, double x6, double x7, struct FI fi, struct FF ff, \
        struct D d
/* Structs after 7 longs: one integer register left. */
#define INT_EXHAUSTED_PARAMS                                                                                           \
    long y0, long y1, long y2, long y3, long y4, long y5, long y6, struct S16 s16, struct FI fi, struct S3 s3

void lib_floats(FLOAT_PARAMS);
void lib_ints(INT_PARAMS);
void lib_fp_exhausted(FP_EXHAUSTED_PARAMS);
void lib_int_exhausted(INT_EXHAUSTED_PARAMS);
void cb_floats(FLOAT_PARAMS);
void cb_ints(INT_PARAMS);
void cb_fp_exhausted(FP_EXHAUSTED_PARAMS);
void cb_int_exhausted(INT_EXHAUSTED_PARAMS);

#define RETURNERS(P)                                                                                                   \
    struct F P##ret_f(float x) { struct F r = { x * 2 }; return r; }                                                 \
    struct FF P##ret_ff(float x) { struct FF r = { x, -x }; return r; }                                              \
    struct FD P##ret_fd(float x) { struct FD r = { x, x * 10 }; return r; }                                          \
    struct DC P##ret_dc(double x) { struct DC r = { x, (signed char)-x }; return r; }                                \
    struct IF P##ret_if(int x) { struct IF r = { x, x / 4.0f }; return r; }                                          \
    struct LD P##ret_ld(long x) { struct LD r = { x, x * 0.5 }; return r; }                                          \
    struct NEST P##ret_nest(float x) { struct NEST r = { { x }, { x + 1 } }; return r; }                             \
    struct FFF P##ret_fff(float x) { struct FFF r = { x, x + 1, x + 2 }; return r; }                                 \
    struct S3 P##ret_s3(int x) { struct S3 r = { { x, x + 1, x + 2 } }; return r; }                                  \
    struct S7 P##ret_s7(int x) { struct S7 r; memset(r.c, 'a' + x, 6); r.c[6] = 0; return r; }                        \
    struct S12 P##ret_s12(int x) { struct S12 r = { x, -x, x * x }; return r; }                                      \
    union U P##ret_u(int x) { union U r; r.i = x * 7; return r; }                                                    \
    struct BIG P##ret_big(long x) { struct BIG r = { x, -x, x * x }; return r; }                                     \
    struct LDS P##ret_lds(int x) { struct LDS r = { x * 1.5L }; return r; }

#define DECLARE_RETURNERS(P)                                                                                           \
    struct F P##ret_f(float x);                                                                                        \
    struct FF P##ret_ff(float x);                                                                                      \
    struct FD P##ret_fd(float x);                                                                                      \
    struct DC P##ret_dc(double x);                                                                                     \
    struct IF P##ret_if(int x);                                                                                        \
    struct LD P##ret_ld(long x);                                                                                       \
    struct NEST P##ret_nest(float x);                                                                                  \
    struct FFF P##ret_fff(float x);                                                                                    \
    struct S3 P##ret_s3(int x);                                                                                        \
    struct S7 P##ret_s7(int x);                                                                                        \
    struct S12 P##ret_s12(int x);                                                                                      \
    union U P##ret_u(int x);                                                                                           \
    struct BIG P##ret_big(long x);                                                                                     \
    struct LDS P##ret_lds(int x);

DECLARE_RETURNERS(lib_)
DECLARE_RETURNERS(cb_)

#define TAKERS(P)                                                                                                      \
    void P##floats(FLOAT_PARAMS) {                                                                                     \
        printf(#P "floats\n");                                                                                         \
        SHOW_ALL                                                                                                       \
        f.a = 0; dd.a[0] = 0; ld.a = 0; /* the callee owns its copies */                                               \
    }                                                                                                                  \
    void P##ints(INT_PARAMS) {                                                                                         \
        printf(#P "ints\n");                                                                                           \
        SHOW_INTS                                                                                                      \
        big.a = 0; bigf.a = 0; s16.a = 0; s3.c[0] = 0;                                                                  \
    }                                                                                                                  \
    void P##fp_exhausted(FP_EXHAUSTED_PARAMS) {                                                                        \
        printf(#P "fp_exhausted %g %g %g %g %g %g %g %g FI %g %d FF %g %g D %g\n", x0, x1, x2, x3, x4, x5, x6, x7,     \
               fi.a, fi.b, ff.a, ff.b, d.a);                                                                           \
    }                                                                                                                  \
    void P##int_exhausted(INT_EXHAUSTED_PARAMS) {                                                                      \
        printf(#P "int_exhausted %ld %ld %ld %ld %ld %ld %ld S16 %ld %ld FI %g %d S3 %d %d %d\n", y0, y1, y2, y3, y4,  \
               y5, y6, s16.a, s16.b, fi.a, fi.b, s3.c[0], s3.c[1], s3.c[2]);                                            \
    }

#define CALL_ALL(P, k)                                                                                                 \
    do {                                                                                                               \
        struct F f = { 1.5f * k };                                                                                     \
        struct D d = { -2.25 * k };                                                                                    \
        struct FF ff = { 3.5f, -4.5f * k };                                                                            \
        struct FD fd = { 5.25f, 6.125 * k };                                                                           \
        struct DF df = { -7.5 * k, 8.75f };                                                                            \
        struct DD dd = { { 9.5, -10.5 * k } };                                                                         \
        struct FI fi = { 11.25f, -12 * k };                                                                            \
        struct DC dc = { 13.5, (signed char)(-14 * k) };                                                              \
        struct IF ifs = { 15 * k, 16.5f };                                                                             \
        struct LD ld = { -17L * k, 18.25 };                                                                            \
        struct NEST nest = { { 19.5f }, { -20.5f * k } };                                                              \
        struct FFF fff = { 21.5f, 22.5f, -23.5f * k };                                                                 \
        struct S1 s1 = { 24 };                                                                                         \
        struct S3 s3 = { { 25, 26, (char)(27 * k) } };                                                                 \
        struct S7 s7 = { "seven" };                                                                                    \
        struct S12 s12 = { 28, -29 * k, 30 };                                                                          \
        struct S16 s16 = { 31L * k, -32 };                                                                             \
        union U u;                                                                                                     \
        u.i = 33 * k;                                                                                                  \
        struct BIG big = { 34, 35 * k, 36 };                                                                           \
        struct BIGF bigf = { 37.5, 38.5 * k, -39.5 };                                                                  \
        struct LDS lds = { 40.25L * k };                                                                               \
        struct A16 a16 = { (__int128)41 * k };                                                                         \
        P##floats(f, d, ff, fd, df, dd, fi, dc, ifs, ld, nest);                                                        \
        P##ints(fff, s1, s3, s7, s12, s16, u, big, bigf, lds, a16);                                                    \
        printf("after: %g %g %ld %ld %g %ld %d\n", f.a, dd.a[0], ld.a, big.a, bigf.a, s16.a, s3.c[0]);                 \
        P##fp_exhausted(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, fi, ff, d);                                            \
        P##int_exhausted(1, 2, 3, 4, 5, 6, 7, s16, fi, s3);                                                            \
    } while (0)

#define CALL_RETURNERS(P)                                                                                              \
    do {                                                                                                               \
        struct F f = P##ret_f(1.25f);                                                                                  \
        struct FF ff = P##ret_ff(2.5f);                                                                                \
        struct FD fd = P##ret_fd(-3.5f);                                                                               \
        struct DC dc = P##ret_dc(4.75);                                                                                \
        struct IF ifs = P##ret_if(-22);                                                                                \
        struct LD ld = P##ret_ld(-6);                                                                                  \
        struct NEST nest = P##ret_nest(7.5f);                                                                          \
        struct FFF fff = P##ret_fff(8.5f);                                                                             \
        struct S3 s3 = P##ret_s3(9);                                                                                   \
        struct S7 s7 = P##ret_s7(3);                                                                                   \
        struct S12 s12 = P##ret_s12(-11);                                                                              \
        union U u = P##ret_u(12);                                                                                      \
        struct BIG big = P##ret_big(13);                                                                               \
        struct LDS lds = P##ret_lds(-14);                                                                              \
        printf(#P "ret F %g FF %g %g FD %g %g DC %g %d IF %d %g LD %ld %g NEST %g %g\n", f.a, ff.a, ff.b, fd.a, fd.b, \
               dc.a, dc.b, ifs.a, ifs.b, ld.a, ld.b, nest.a.x, nest.b[0]);                                              \
        printf(#P "ret FFF %g %g %g S3 %d %d %d S7 %s S12 %d %d %d U %d BIG %ld %ld %ld LDS %Lg\n", fff.a, fff.b,     \
               fff.c, s3.c[0], s3.c[1], s3.c[2], s7.c, s12.a, s12.b, s12.c, u.i, big.a, big.b, big.c, lds.x);          \
    } while (0)

void lib_calls_main(void);

#ifdef SIDE_LIB
TAKERS(lib_)
RETURNERS(lib_)
void lib_calls_main(void) {
    CALL_ALL(cb_, -1);
    CALL_RETURNERS(cb_);
}
#endif

#ifdef SIDE_MAIN
TAKERS(cb_)
RETURNERS(cb_)
int main(void) {
    CALL_ALL(lib_, 1);
    CALL_RETURNERS(lib_);
    lib_calls_main();
    return 0;
}
#endif
