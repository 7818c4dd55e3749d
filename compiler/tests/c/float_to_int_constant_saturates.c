/* A constant conversion of a floating value outside the range of the integer
 * type is undefined (C11 6.3.1.4p1); GCC folds it by saturating to the
 * type's limits (NaN gives 0), at -O0 too. From gcc.c-torture/execute/
 * 20031003-1.c, where phicc left it to the hardware (INT_MIN on x86-64). */
#include "test.h"

static int f1(void) { return (int)2147483648.0f; }
static int f2(void) { return (int)(float)(2147483647); }
static int f3(void) { return (int)-1e10; }
static unsigned f4(void) { return (unsigned)1e10; }
static unsigned f5(void) { return (unsigned)-5.0; }
static long long f6(void) { return (long long)1e30; }
static unsigned long long f7(void) { return (unsigned long long)1e30; }
static short f8(void) { return (short)(int)1e10; }
static int f9(void) { return (int)__builtin_inf(); }
static int f10(void) { return (int)__builtin_nan(""); }
static long long f11(void) { return (long long)-__builtin_inff(); }

int main(void) {
    ASSERT(2147483647, f1());
    ASSERT(2147483647, f2());
    ASSERT(-2147483647 - 1, f3());
    ASSERT(4294967295u, f4());
    ASSERT(0, f5());
    ASSERT(9223372036854775807LL, f6());
    ASSERT(1, f7() == 18446744073709551615ULL);
    ASSERT(-1, f8());
    ASSERT(2147483647, f9());
    ASSERT(0, f10());
    ASSERT(1, f11() == -9223372036854775807LL - 1);
    /* In range: unchanged. */
    ASSERT(-3, (int)-3.9);
    ASSERT(4294967295u, (unsigned)4294967295.0);
    return test_done();
}
