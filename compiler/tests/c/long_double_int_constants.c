/* An integer constant converted to long double must keep every bit that a
 * long double holds (x87 80-bit on x86-64, binary128 on AArch64 and RISC-V
 * 64), as gcc's folding and the run-time conversion do. phicc folds
 * floating constants through f64, so it folded (long double)~0ULL to 2^64
 * while the same conversion at run time is exact. From gcc.c-torture/
 * execute/conversion.c. Such conversions are now folded exactly, in the
 * target's long double (compiler/src/binary128.rs). */
#include "test.h"

static long double ull2ld(unsigned long long u) { return u; }
static long double sll2ld(long long s) { return s; }
static long double u128_2ld(unsigned __int128 u) { return u; }

int main(void) {
    ASSERT(1, ull2ld(~0ULL) == (long double)~0ULL);
    ASSERT(1, ull2ld(~0ULL >> 1) == (long double)(~0ULL >> 1));
    ASSERT(1, ull2ld(~(~0ULL >> 1)) == (long double)~(~0ULL >> 1));
    ASSERT(1, ull2ld(0x123456789abcdef1ULL) == (long double)0x123456789abcdef1ULL);
    ASSERT(1, sll2ld(~0ULL >> 1) == (long double)(long long)(~0ULL >> 1));
    ASSERT(1, sll2ld(-0x123456789abcdefLL) == (long double)-0x123456789abcdefLL);
    ASSERT(1, u128_2ld(~0ULL) == (long double)(unsigned __int128)~0ULL);
    /* Constants a double holds exactly are still folded. */
    ASSERT(1, ull2ld(1ULL << 63) == (long double)(1ULL << 63));
    ASSERT(1, (long double)12345 == 12345.0L);
    return test_done();
}
