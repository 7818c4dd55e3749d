/* C11 6.10: macros, conditional inclusion, stringizing, pasting, variadic macros. */
#include "test.h"

int strcmp(const char *, const char *);

#define ONE 1
#define TWO (ONE + ONE)
#define SQUARE(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define COUNT(...) COUNT_(__VA_ARGS__, 5, 4, 3, 2, 1)
#define COUNT_(a, b, c, d, e, n, ...) n
#define FIRST(x, ...) x
#define SUM3(a, b, c) ((a) + (b) + (c))
#define CALL(f, ...) f(__VA_ARGS__)
#define OPT(fmt, ...) count_args(0, ##__VA_ARGS__)
#define EMPTY
#define SELF SELF
#define f(x) (x + 1)
#define g f
#define PLUS_ONE(x) x + 1

static int count_args(int n, ...) { return n; }

#if TWO == 2
static int two_ok = 1;
#else
static int two_ok = 0;
#endif

#if defined(ONE) && !defined(UNDEFINED_MACRO)
#define DEFINED_OK 7
#endif

#ifdef UNDEFINED_MACRO
#error "must not be reached"
#elif ONE + 1 == 2
#define ELIF_OK 9
#else
#define ELIF_OK 0
#endif

#undef ONE
#define ONE 11

#if (3 ? 4 : 5) == 4 && (-1 < 0) && (0x10 == 16) && ('A' == 65) && (1 << 4) == 16
#define ARITH_OK 1
#else
#define ARITH_OK 0
#endif

#if __STDC_VERSION__ >= 201112L
#define C11_OK 1
#endif

#ifndef __LP64__
#error "LP64 expected"
#endif

int main(void) {
    int x = 3;
    ASSERT(44, TWO * 2 - 0);
    ASSERT(242, TWO * ONE);
    ASSERT(9, SQUARE(x));
    ASSERT(25, SQUARE(x + 2));
    ASSERT(7, MAX(3, 7));
    ASSERT(0, strcmp(STR(hello world), "hello world"));
    ASSERT(0, strcmp(XSTR(TWO), "(11 + 11)"));
    ASSERT(0, strcmp(STR(a + "b"), "a + \"b\""));
    int CAT(var, 1) = 41;
    ASSERT(41, var1);
    ASSERT(123, XCAT(12, 3));
    ASSERT(1, COUNT(a));
    ASSERT(3, COUNT(a, b, c));
    ASSERT(5, COUNT(a, b, c, d, e));
    ASSERT(8, FIRST(8, 9, 10));
    ASSERT(6, SUM3(1, 2, 3));
    ASSERT(5, CALL(SUM3, 1, 1, 3));
    ASSERT(0, OPT("x"));
    ASSERT(1, two_ok);
    ASSERT(7, DEFINED_OK);
    ASSERT(9, ELIF_OK);
    ASSERT(1, ARITH_OK);
    ASSERT(1, C11_OK);
    ASSERT(3, f(2));
    ASSERT(3, g(2));
    ASSERT(8, PLUS_ONE(1) * 7 + EMPTY 0);
    ASSERT(91, __LINE__);
#line 500
    ASSERT(500, __LINE__);
    ASSERT(1, sizeof(__FILE__) > 1);
    ASSERT(1, __STDC__);
    ASSERT(8, sizeof(long));
    ASSERT(1, __CHAR_BIT__ == 8);
    return test_done();
}
