/* Shared by abi_helper.c (compiled by gcc) and abi_test.c (compiled by
 * phicc): the struct types of every SysV classification, and ABI-free
 * fill/check functions (through pointers only) so that each side can build a
 * value and recognise one built by the other side. */
#ifndef ABI_COMMON_H
#define ABI_COMMON_H

/* INTEGER-only, odd sizes 1..16. */
struct S1 { char a; };
struct S2 { short a; };
struct S3 { char a, b, c; };
struct S4 { int a; };
struct S5 { char a[5]; };
struct S6 { short a[3]; };
struct S7 { char a[7]; };
struct S8 { long a; };
struct S9 { char a[9]; };
struct S12 { int a, b, c; };
struct S16 { long a, b; };
/* SSE-only. */
struct F1 { float a; };
struct F2 { float a, b; };
struct F3 { float a, b, c; };
struct F4 { float a, b, c, d; };
struct D1 { double a; };
struct D2 { double a, b; };
/* Mixed INTEGER and SSE eightbytes. */
struct FI { float f; int i; };
struct IF2 { int i; float f; double d; };
struct DI { double d; int i; };
struct ID { int i; double d; };
struct CFD { char c; float f; double d; };
struct DS { double d; short s[2]; };
/* MEMORY class: larger than 16 bytes, or holding long double. */
struct Big { long a, b, c; };
struct Mix24 { char c; double d; short s; };
struct LD1 { long double x; };
struct LD2 { long double x; int i; };
/* Unions and nesting. */
union U8 { long l; double d; };
struct Nest { struct F2 f; struct S4 s; };
/* AAPCS64 classes: HFAs of four doubles (32 bytes, still in v registers),
 * of two long doubles, of a float array and of a union; a 16-byte aligned
 * composite (an even x register pair); a 40-byte composite (by reference). */
struct D4 { double a, b, c, d; };
struct L2 { long double x, y; };
struct FA { float a[3]; };
struct UF2 { union { float f; float g[2]; } u; };
struct Q { __int128 v; };
struct B40 { char a[40]; };

#define ABI_STRUCTS(X) \
    X(S1) X(S2) X(S3) X(S4) X(S5) X(S6) X(S7) X(S8) X(S9) X(S12) X(S16) \
    X(F1) X(F2) X(F3) X(F4) X(D1) X(D2) X(FI) X(IF2) X(DI) X(ID) X(CFD) X(DS) \
    X(Big) X(Mix24) X(LD1) X(LD2) X(Nest) X(D4) X(L2) X(FA) X(UF2) X(Q) X(B40)

/* Byte-wise fill of the data members (not the padding) from a seed. */
static void fill_S1(struct S1 *p, int s) { p->a = (char)(s + 1); }
static void fill_S2(struct S2 *p, int s) { p->a = (short)(s * 300 - 7); }
static void fill_S3(struct S3 *p, int s) { p->a = (char)s; p->b = (char)(s + 2); p->c = (char)(s - 3); }
static void fill_S4(struct S4 *p, int s) { p->a = s * 100003; }
static void fill_S5(struct S5 *p, int s) { for (int i = 0; i < 5; i++) p->a[i] = (char)(s + 7 * i); }
static void fill_S6(struct S6 *p, int s) { for (int i = 0; i < 3; i++) p->a[i] = (short)(s * 1000 - 333 * i); }
static void fill_S7(struct S7 *p, int s) { for (int i = 0; i < 7; i++) p->a[i] = (char)(s * 3 + i); }
static void fill_S8(struct S8 *p, int s) { p->a = (long)s * 123456789123L; }
static void fill_S9(struct S9 *p, int s) { for (int i = 0; i < 9; i++) p->a[i] = (char)(s - 11 * i); }
static void fill_S12(struct S12 *p, int s) { p->a = s; p->b = -s * 77; p->c = s ^ 0x5555; }
static void fill_S16(struct S16 *p, int s) { p->a = (long)s << 40; p->b = -(long)s * 99; }
static void fill_F1(struct F1 *p, int s) { p->a = s * 0.5f; }
static void fill_F2(struct F2 *p, int s) { p->a = s * 0.25f; p->b = -s * 1.5f; }
static void fill_F3(struct F3 *p, int s) { p->a = s; p->b = s + 0.5f; p->c = s - 0.25f; }
static void fill_F4(struct F4 *p, int s) { p->a = s; p->b = 2 * s; p->c = 3 * s; p->d = -4.5f * s; }
static void fill_D1(struct D1 *p, int s) { p->a = s * 1.125; }
static void fill_D2(struct D2 *p, int s) { p->a = s / 8.0; p->b = -s * 3.0; }
static void fill_FI(struct FI *p, int s) { p->f = s * 0.75f; p->i = -s; }
static void fill_IF2(struct IF2 *p, int s) { p->i = s * 5; p->f = s * 0.125f; p->d = s * 10.5; }
static void fill_DI(struct DI *p, int s) { p->d = s * 2.5; p->i = s * 6; }
static void fill_ID(struct ID *p, int s) { p->i = s * 7; p->d = -s * 0.5; }
static void fill_CFD(struct CFD *p, int s) { p->c = (char)(s + 40); p->f = s * 1.5f; p->d = s * -2.25; }
static void fill_DS(struct DS *p, int s) { p->d = s * 0.375; p->s[0] = (short)s; p->s[1] = (short)(-s); }
static void fill_Big(struct Big *p, int s) { p->a = s; p->b = s * 2L; p->c = s * -3L; }
static void fill_Mix24(struct Mix24 *p, int s) { p->c = (char)s; p->d = s * 4.5; p->s = (short)(s * 9); }
static void fill_LD1(struct LD1 *p, int s) { p->x = s * 0.5L; }
static void fill_LD2(struct LD2 *p, int s) { p->x = s * 1.25L; p->i = s + 3; }
static void fill_Nest(struct Nest *p, int s) { p->f.a = s; p->f.b = -s; p->s.a = s * 11; }
static void fill_D4(struct D4 *p, int s) { p->a = s; p->b = s * 0.5; p->c = -s; p->d = s * 0.25; }
static void fill_L2(struct L2 *p, int s) { p->x = s * 0.75L; p->y = -s * 2.5L; }
static void fill_FA(struct FA *p, int s) { for (int i = 0; i < 3; i++) p->a[i] = s + i * 0.5f; }
static void fill_UF2(struct UF2 *p, int s) { p->u.g[0] = s * 0.5f; p->u.g[1] = -s; }
static void fill_Q(struct Q *p, int s) { p->v = ((__int128)s << 64) | (unsigned)(s * 7); }
static void fill_B40(struct B40 *p, int s) { for (int i = 0; i < 40; i++) p->a[i] = (char)(s * 3 + i); }

/* A checksum over the data members, weighted by position. */
static long check_S1(const struct S1 *p) { return p->a; }
static long check_S2(const struct S2 *p) { return p->a; }
static long check_S3(const struct S3 *p) { return p->a + 3 * p->b + 5 * p->c; }
static long check_S4(const struct S4 *p) { return p->a; }
static long check_S5(const struct S5 *p) { long r = 0; for (int i = 0; i < 5; i++) r = r * 31 + p->a[i]; return r; }
static long check_S6(const struct S6 *p) { long r = 0; for (int i = 0; i < 3; i++) r = r * 31 + p->a[i]; return r; }
static long check_S7(const struct S7 *p) { long r = 0; for (int i = 0; i < 7; i++) r = r * 31 + p->a[i]; return r; }
static long check_S8(const struct S8 *p) { return p->a; }
static long check_S9(const struct S9 *p) { long r = 0; for (int i = 0; i < 9; i++) r = r * 31 + p->a[i]; return r; }
static long check_S12(const struct S12 *p) { return p->a + 3L * p->b + 5L * p->c; }
static long check_S16(const struct S16 *p) { return p->a + 3 * p->b; }
static long check_F1(const struct F1 *p) { return (long)(p->a * 1000); }
static long check_F2(const struct F2 *p) { return (long)(p->a * 1000) + 3 * (long)(p->b * 1000); }
static long check_F3(const struct F3 *p) { return (long)(p->a * 1000) + 3 * (long)(p->b * 1000) + 5 * (long)(p->c * 1000); }
static long check_F4(const struct F4 *p) { return (long)(p->a + 3 * p->b + 5 * p->c + 7 * p->d); }
static long check_D1(const struct D1 *p) { return (long)(p->a * 1000); }
static long check_D2(const struct D2 *p) { return (long)(p->a * 1000) + 3 * (long)(p->b * 1000); }
static long check_FI(const struct FI *p) { return (long)(p->f * 1000) + 3L * p->i; }
static long check_IF2(const struct IF2 *p) { return p->i + 3 * (long)(p->f * 1000) + 5 * (long)(p->d * 1000); }
static long check_DI(const struct DI *p) { return (long)(p->d * 1000) + 3L * p->i; }
static long check_ID(const struct ID *p) { return p->i + 3 * (long)(p->d * 1000); }
static long check_CFD(const struct CFD *p) { return p->c + 3 * (long)(p->f * 1000) + 5 * (long)(p->d * 1000); }
static long check_DS(const struct DS *p) { return (long)(p->d * 1000) + 3L * p->s[0] + 5L * p->s[1]; }
static long check_Big(const struct Big *p) { return p->a + 3 * p->b + 5 * p->c; }
static long check_Mix24(const struct Mix24 *p) { return p->c + 3 * (long)(p->d * 1000) + 5L * p->s; }
static long check_LD1(const struct LD1 *p) { return (long)(p->x * 1000); }
static long check_LD2(const struct LD2 *p) { return (long)(p->x * 1000) + 3L * p->i; }
static long check_Nest(const struct Nest *p) { return (long)(p->f.a * 1000) + 3 * (long)(p->f.b * 1000) + 5L * p->s.a; }
static long check_D4(const struct D4 *p) {
    return (long)(p->a * 1000) + 3 * (long)(p->b * 1000) + 5 * (long)(p->c * 1000) + 7 * (long)(p->d * 1000);
}
static long check_L2(const struct L2 *p) { return (long)(p->x * 1000) + 3 * (long)(p->y * 1000); }
static long check_FA(const struct FA *p) { long r = 0; for (int i = 0; i < 3; i++) r += (2 * i + 1) * (long)(p->a[i] * 1000); return r; }
static long check_UF2(const struct UF2 *p) { return (long)(p->u.g[0] * 1000) + 3 * (long)(p->u.g[1] * 1000); }
static long check_Q(const struct Q *p) { return 3 * (long)(p->v >> 64) + (long)p->v; }
static long check_B40(const struct B40 *p) { long r = 0; for (int i = 0; i < 40; i++) r = r * 31 + p->a[i]; return r; }

/* Each side defines, for every struct T:
 *   struct T X_ret_T(int seed)                  returns a filled T
 *   long X_take_T(int pre, struct T x, double post)   check(x) + pre + (long)post
 *   long X_take8_T(struct T, ... 8 times)         sum of the checks (register exhaustion)
 * with X = g (gcc's helper) or p (phicc's test); gcc also defines
 *   long g_callback_T(long (*f)(int, struct T, double), int seed)
 *   long g_call_ret_T(int seed)   check of p_ret_T(seed), called from gcc. */
#define DECLARE(T, X) \
    struct T X##_ret_##T(int seed); \
    long X##_take_##T(int pre, struct T x, double post); \
    long X##_take8_##T(struct T a, struct T b, struct T c, struct T d, struct T e, struct T f, struct T g, struct T h);
#define DECLARE_G(T) DECLARE(T, g) long g_callback_##T(long (*f)(int, struct T, double), int seed); long g_call_ret_##T(int seed);
#define DECLARE_P(T) DECLARE(T, p)

#define DEFINE(T, X) \
    struct T X##_ret_##T(int seed) { struct T r; fill_##T(&r, seed); return r; } \
    long X##_take_##T(int pre, struct T x, double post) { return check_##T(&x) + pre + (long)post; } \
    long X##_take8_##T(struct T a, struct T b, struct T c, struct T d, struct T e, struct T f, struct T g, struct T h) { \
        return check_##T(&a) + 2 * check_##T(&b) + 3 * check_##T(&c) + 4 * check_##T(&d) + 5 * check_##T(&e) + \
               6 * check_##T(&f) + 7 * check_##T(&g) + 8 * check_##T(&h); \
    }

ABI_STRUCTS(DECLARE_G)
ABI_STRUCTS(DECLARE_P)

/* Scalars of every class, many of them (registers run out). */
long g_scalars(char a, unsigned char b, short c, unsigned short d, int e, unsigned f, long g, unsigned long h,
               float i, double j, long double k, __int128 l, unsigned __int128 m, float n, double o,
               double p1, double p2, double p3, double p4, double p5, double p6, long double q, char r, __int128 s);
long p_scalars(char a, unsigned char b, short c, unsigned short d, int e, unsigned f, long g, unsigned long h,
               float i, double j, long double k, __int128 l, unsigned __int128 m, float n, double o,
               double p1, double p2, double p3, double p4, double p5, double p6, long double q, char r, __int128 s);
long g_call_p_scalars(void);
static long scalars_check(char a, unsigned char b, short c, unsigned short d, int e, unsigned f, long g, unsigned long h,
                          float i, double j, long double k, __int128 l, unsigned __int128 m, float n, double o,
                          double p1, double p2, double p3, double p4, double p5, double p6, long double q, char r, __int128 s) {
    return a + 2L * b + 3L * c + 5L * d + 7L * e + 11L * f + 13L * g + 17L * (long)h + (long)(i * 100) + (long)(j * 1000) +
           (long)(k * 10000) + (long)(l >> 64) * 19 + (long)l + (long)(m >> 64) * 23 + (long)m + (long)(n * 4) +
           (long)(o * 8) + (long)(p1 + 2 * p2 + 3 * p3 + 4 * p4 + 5 * p5 + 6 * p6) + (long)(q * 64) + 29L * r +
           (long)(s >> 64) * 31 + (long)s;
}

/* Returns of every scalar class. */
char g_ret_char(int x); unsigned short g_ret_ushort(int x); float g_ret_float(int x); double g_ret_double(int x);
long double g_ret_ldouble(int x); __int128 g_ret_i128(int x);
char p_ret_char(int x); unsigned short p_ret_ushort(int x); float p_ret_float(int x); double p_ret_double(int x);
long double p_ret_ldouble(int x); __int128 p_ret_i128(int x);
long g_call_p_rets(int x);

/* Variadic functions: fmt lists the types ('i' int, 'l' long, 'd' double,
 * 'L' long double, 'q' __int128, 'p' pointer, 'S' struct DL-like D2, 'B' struct Big,
 * 'F' struct F2, 'I' struct ID, 'M' struct Mix24, 'Q' struct Q, 'C' a long read
 * through a va_copy); returns a checksum. */
long g_vsum(const char *fmt, ...);
long p_vsum(const char *fmt, ...);
long g_call_p_vsum(void);

/* The variadic checksum both sides compute (va_arg of every class, structs
 * in registers and in memory, va_copy). */
#define VSUM_BODY                                                                          \
    va_list ap;                                                                            \
    va_start(ap, fmt);                                                                     \
    long r = 0;                                                                            \
    for (const char *c = fmt; *c; c++) {                                                   \
        r *= 3;                                                                            \
        switch (*c) {                                                                      \
        case 'i': r += va_arg(ap, int); break;                                             \
        case 'l': r += va_arg(ap, long); break;                                            \
        case 'd': r += (long)(va_arg(ap, double) * 100); break;                            \
        case 'L': r += (long)(va_arg(ap, long double) * 100); break;                       \
        case 'q': { __int128 q = va_arg(ap, __int128); r += (long)q + 7 * (long)(q >> 64); break; } \
        case 'p': r += *va_arg(ap, int *); break;                                          \
        case 'S': { struct D2 s = va_arg(ap, struct D2); r += check_D2(&s); break; }      \
        case 'B': { struct Big s = va_arg(ap, struct Big); r += check_Big(&s); break; }   \
        case 'F': { struct F2 s = va_arg(ap, struct F2); r += check_F2(&s); break; }      \
        case 'I': { struct ID s = va_arg(ap, struct ID); r += check_ID(&s); break; }      \
        case 'M': { struct Mix24 s = va_arg(ap, struct Mix24); r += check_Mix24(&s); break; } \
        case 'Q': { struct Q s = va_arg(ap, struct Q); r += check_Q(&s); break; }         \
        case 'C': { va_list aq; va_copy(aq, ap); r += va_arg(aq, long); va_end(aq); break; } \
        }                                                                                  \
    }                                                                                      \
    va_end(ap);                                                                            \
    return r;

/* The scalar returns both sides define the same way. */
#define DEFINE_RETS(X) \
    char X##_ret_char(int x) { return (char)(x * 3); } \
    unsigned short X##_ret_ushort(int x) { return (unsigned short)(x * 1000); } \
    float X##_ret_float(int x) { return x * 0.25f; } \
    double X##_ret_double(int x) { return x * 0.125; } \
    long double X##_ret_ldouble(int x) { return x * 0.0625L; } \
    __int128 X##_ret_i128(int x) { return ((__int128)x << 70) - x; }

/* _Complex of every part type the conventions classify apart (SysV: float
 * packed in one SSE eightbyte, double in two, long double COMPLEX_X87
 * returned in st(0)/st(1); AAPCS64: HFAs; LP64D: two FP registers, or by
 * reference for long double; complex integers as two-member aggregates).
 * Each side X defines
 *   _Complex T X_cret_N(int seed)     returns seed+1 - 2*seed i
 *   long X_ctake_N(int pre, _Complex T a, double mid, ... 8 more)   a checksum
 * and gcc also g_call_p_cret_N(seed), g_call_p_ctake_N(seed), which call
 * phicc's functions. */
#define ABI_COMPLEX(X) X(cf, float) X(cd, double) X(cld, long double) X(ci, int) X(cs, short) X(csc, signed char)
#define CSCORE(z) ((long)(__real__(z) * 3) + (long)(__imag__(z) * 7))
#define DECLARE_COMPLEX(N, T) \
    _Complex T g_cret_##N(int seed); _Complex T p_cret_##N(int seed); \
    long g_ctake_##N(int pre, _Complex T a, double mid, _Complex T b, _Complex T c, _Complex T d, _Complex T e, \
                     _Complex T f, _Complex T g, _Complex T h, _Complex T i); \
    long p_ctake_##N(int pre, _Complex T a, double mid, _Complex T b, _Complex T c, _Complex T d, _Complex T e, \
                     _Complex T f, _Complex T g, _Complex T h, _Complex T i); \
    long g_call_p_cret_##N(int seed); long g_call_p_ctake_##N(int seed);
ABI_COMPLEX(DECLARE_COMPLEX)
#define DEFINE_COMPLEX_SIDE(N, T, X) \
    _Complex T X##_cret_##N(int seed) { _Complex T z; __real__ z = seed + 1; __imag__ z = -2 * seed; return z; } \
    long X##_ctake_##N(int pre, _Complex T a, double mid, _Complex T b, _Complex T c, _Complex T d, _Complex T e, \
                       _Complex T f, _Complex T g, _Complex T h, _Complex T i) { \
        return pre + (long)(mid * 4) + CSCORE(a) + 2 * CSCORE(b) + 3 * CSCORE(c) + 4 * CSCORE(d) + 5 * CSCORE(e) + \
               6 * CSCORE(f) + 7 * CSCORE(g) + 8 * CSCORE(h) + 9 * CSCORE(i); \
    }
#endif
