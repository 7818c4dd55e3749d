/* ABI interop, variadic functions in both call directions: va_arg of
 * int, unsigned, long, double, long double, __int128, char (promoted),
 * small and large structs, float-class structs (variadic structs never use
 * FP registers on RISC-V) and 16-aligned structs; named arguments that
 * leave an odd number of integer registers (so that a 16-aligned variadic
 * argument skips one); enough arguments to spill to the stack; a va_list
 * handed to a function the other compiler built; va_copy. */
#include <stdarg.h>
#include <stdio.h>

struct S12 { int a, b, c; };
struct FF { float a, b; };
struct DD { double a, b; };
struct BIG { long a, b, c, d; };
struct A16 { __int128 x; };

double lib_vsum(const char *fmt, va_list ap);
double lib_sum(const char *fmt, ...);
double lib_sum_fwd(const char *fmt, ...);
double lib_mixed(int a, double b, long double c, const char *fmt, ...);
double lib_twice(const char *fmt, ...);
double cb_vsum(const char *fmt, va_list ap);
double cb_sum(const char *fmt, ...);
double cb_sum_fwd(const char *fmt, ...);
double cb_mixed(int a, double b, long double c, const char *fmt, ...);
double cb_twice(const char *fmt, ...);

/* Reads the arguments `fmt` describes, prints them, returns their sum. */
#define VSUM_BODY                                                                                                      \
    double t = 0;                                                                                                      \
    for (const char *p = fmt; *p; p++) {                                                                               \
        switch (*p) {                                                                                                  \
        case 'i': { int v = va_arg(ap, int); printf(" i%d", v); t += v; break; }                                       \
        case 'u': { unsigned v = va_arg(ap, unsigned); printf(" u%u", v); t += v; break; }                             \
        case 'l': { long v = va_arg(ap, long); printf(" l%ld", v); t += v; break; }                                    \
        case 'd': { double v = va_arg(ap, double); printf(" d%g", v); t += v; break; }                                 \
        case 'L': { long double v = va_arg(ap, long double); printf(" L%Lg", v); t += v; break; }                      \
        case 'q': { __int128 v = va_arg(ap, __int128); printf(" q%lld:%lld", (long long)(v >> 64), (long long)v);     \
                    t += (double)v; break; }                                                                           \
        case 'c': { int v = va_arg(ap, int); printf(" c%d", (signed char)v); t += v; break; }                          \
        case 's': { struct S12 v = va_arg(ap, struct S12); printf(" s%d,%d,%d", v.a, v.b, v.c); t += v.a + v.b + v.c;  \
                    break; }                                                                                           \
        case 'f': { struct FF v = va_arg(ap, struct FF); printf(" f%g,%g", v.a, v.b); t += v.a + v.b; break; }          \
        case 'D': { struct DD v = va_arg(ap, struct DD); printf(" D%g,%g", v.a, v.b); t += v.a + v.b; break; }          \
        case 'b': { struct BIG v = va_arg(ap, struct BIG); printf(" b%ld,%ld,%ld,%ld", v.a, v.b, v.c, v.d);            \
                    t += v.a + v.b + v.c + v.d; break; }                                                               \
        case 'a': { struct A16 v = va_arg(ap, struct A16); printf(" a%lld", (long long)v.x); t += (double)v.x; break; } \
        }                                                                                                              \
    }                                                                                                                  \
    printf("\n");                                                                                                      \
    return t;

#define VARIADICS(P, OTHER)                                                                                            \
    double P##vsum(const char *fmt, va_list ap) { VSUM_BODY }                                                          \
    double P##sum(const char *fmt, ...) {                                                                              \
        va_list ap;                                                                                                    \
        va_start(ap, fmt);                                                                                             \
        printf(#P "sum");                                                                                              \
        double t = P##vsum(fmt, ap);                                                                                   \
        va_end(ap);                                                                                                    \
        return t;                                                                                                      \
    }                                                                                                                  \
    double P##sum_fwd(const char *fmt, ...) {                                                                          \
        va_list ap;                                                                                                    \
        va_start(ap, fmt);                                                                                             \
        printf(#P "sum_fwd via " #OTHER "vsum");                                                                       \
        double t = OTHER##vsum(fmt, ap);                                                                               \
        va_end(ap);                                                                                                    \
        return t;                                                                                                      \
    }                                                                                                                  \
    double P##mixed(int a, double b, long double c, const char *fmt, ...) {                                           \
        va_list ap;                                                                                                    \
        va_start(ap, fmt);                                                                                             \
        printf(#P "mixed %d %g %Lg", a, b, c);                                                                         \
        double t = P##vsum(fmt, ap);                                                                                   \
        va_end(ap);                                                                                                    \
        return t;                                                                                                      \
    }                                                                                                                  \
    double P##twice(const char *fmt, ...) {                                                                            \
        va_list ap, again;                                                                                             \
        va_start(ap, fmt);                                                                                             \
        va_copy(again, ap);                                                                                            \
        printf(#P "twice");                                                                                            \
        double t = P##vsum(fmt, ap);                                                                                   \
        printf(#P "twice again");                                                                                      \
        t += P##vsum(fmt, again);                                                                                      \
        va_end(again);                                                                                                 \
        va_end(ap);                                                                                                    \
        return t;                                                                                                      \
    }

#define CALLS(P, k)                                                                                                    \
    do {                                                                                                               \
        struct S12 s = { 1 * k, 2, 3 };                                                                                \
        struct FF f = { 4.5f, -5.5f * k };                                                                             \
        struct DD dd = { 6.25 * k, 7.75 };                                                                             \
        struct BIG b = { 8, 9 * k, 10, 11 };                                                                           \
        struct A16 a = { (__int128)-12 * k };                                                                          \
        char c = (char)(-13 * k);                                                                                      \
        __int128 q = ((__int128)k << 80) + 14;                                                                         \
        printf(" = %g\n", P##sum("iuldLqc", -1 * k, 4000000000u, -2L * k, 3.5 * k, (long double)-4.25 * k, q, c));     \
        printf(" = %g\n", P##sum("sfDba", s, f, dd, b, a));                                                            \
        /* An odd register count before the 16-aligned arguments. */                                                   \
        printf(" = %g\n", P##sum("iLiqidL", 1, 2.5L, 3, q, 5, 6.5, (long double)7 * k));                              \
        /* Enough to spill to the stack, 16-aligned ones included. */                                                  \
        printf(" = %g\n", P##sum("lllllllLqdsbadL", 1L, 2L, 3L, 4L, 5L, 6L, 7L * k, 8.5L, q, 9.5, s, b, a, 10.5 * k,    \
                                 (long double)11));                                                                    \
        printf(" = %g\n", P##sum_fwd("idLqsb", 21 * k, 22.5, (long double)23, q, s, b));                               \
        printf(" = %g\n", P##mixed(31 * k, 32.5, 33.25L, "Lqid", (long double)34 * k, q, 35, 36.5));                   \
        printf(" = %g\n", P##twice("dLiqf", 41.5 * k, (long double)42, 43, q, f));                                     \
    } while (0)

void lib_calls_main(void);

#ifdef SIDE_LIB
VARIADICS(lib_, cb_)
void lib_calls_main(void) { CALLS(cb_, -1); }
#endif

#ifdef SIDE_MAIN
VARIADICS(cb_, lib_)
int main(void) {
    CALLS(lib_, 1);
    lib_calls_main();
    return 0;
}
#endif
