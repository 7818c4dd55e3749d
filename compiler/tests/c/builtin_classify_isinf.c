/* __builtin_classify_type (gcc's `enum type_class` of the promoted
   argument, not evaluated, an integer constant) and the typed
   classification builtins __builtin_isinff/isinfl/isnanf/isnanl/finite*,
   which convert their argument to their own type first. */
#include "test.h"

enum color { RED, GREEN };
struct pair { int a, b; };
union either { int i; float f; };
static int func(void) { return 0; }

static int testf(float b) {
    float c = 1.01f * b;
    return __builtin_isinff(c);
}
static int testd(double b) {
    double c = 1.01 * b;
    return __builtin_isinf(c);
}
static int testl(long double b) {
    long double c = 1.01L * b;
    return __builtin_isinfl(c);
}

int main(void) {
    char c = 0;
    _Bool b = 0;
    short s = 0;
    enum color e = RED;
    float f = 0;
    double d = 0;
    long double ld = 0;
    int arr[3] = {0};
    struct pair p = {0};
    union either u = {0};
    int *ip = arr;
    int i = 0;
    ASSERT(1, __builtin_classify_type(c));
    ASSERT(1, __builtin_classify_type(b));
    ASSERT(1, __builtin_classify_type(s));
    ASSERT(1, __builtin_classify_type(e));
    ASSERT(1, __builtin_classify_type(0UL));
    ASSERT(8, __builtin_classify_type(f));
    ASSERT(8, __builtin_classify_type(d));
    ASSERT(8, __builtin_classify_type(ld));
    ASSERT(5, __builtin_classify_type(arr));
    ASSERT(5, __builtin_classify_type(ip));
    ASSERT(5, __builtin_classify_type(func));
    ASSERT(5, __builtin_classify_type("str"));
    ASSERT(12, __builtin_classify_type(p));
    ASSERT(13, __builtin_classify_type(u));
    ASSERT(1, __builtin_classify_type(i++));
    ASSERT(0, i);
    switch (8) {
    case __builtin_classify_type(1.0f):
        i = 7;
        break;
    default:
        i = 9;
    }
    ASSERT(7, i);
    static char by_class[__builtin_classify_type(p)];
    ASSERT(12, sizeof by_class);

    ASSERT(1, testf(__FLT_MAX__));
    ASSERT(1, testd(__DBL_MAX__));
    ASSERT(1, testl(__LDBL_MAX__) >= 1);
    ASSERT(0, testf(1.0f));
    ASSERT(0, testd(-2.0));
    ASSERT(0, testl(3.0L));
    volatile double big = 1e300;
    ASSERT(1, __builtin_isinff(big));   /* 1e300 converted to float */
    ASSERT(0, __builtin_isinf(big));
    ASSERT(1, __builtin_isinfl(-big * big));
    volatile double nan = 0.0 / 0.0;
    ASSERT(1, __builtin_isnanf(nan));
    ASSERT(1, __builtin_isnanl(nan));
    ASSERT(0, __builtin_isnanf(big));
    ASSERT(1, __builtin_finite(big));
    ASSERT(0, __builtin_finitef(big));
    ASSERT(1, __builtin_finitel(-big));
    ASSERT(0, __builtin_finite(nan));
    return test_done();
}
