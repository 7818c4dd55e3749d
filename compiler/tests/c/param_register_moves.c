/* Parameters whose allocator homes are other parameters' argument registers:
 * on x86-64 the heaviest values take r8, r9, rsi and rdi in that order, so
 * here `a` (arriving in rdi) lives in r8 while `e` (arriving in r8) lives in
 * rdi, and `b`/`f` swap rsi and r9. The prologue must move them as one
 * parallel move, breaking both cycles through a temporary. */
#include "test.h"

__attribute__((noinline)) static long g(long a, long b, long c, long d, long e, long f) {
    long r = a * 3 + b;
    r ^= a + b; r += a * b; r -= a; r ^= a << 2; r += a * 7; r += a - 1;
    r += b * 5; r ^= b; r += b >> 1; r -= b;
    r += f * 11; r ^= f; r += f - 3; r -= f * 2;
    r += e * 13; r ^= e; r += e - 9;
    return r + c + d;
}

/* Three-way rotation: a -> the home of c's register, and so on. */
__attribute__((noinline)) static long rot(long a, long b, long c) {
    long r = 0;
    for (int i = 0; i < 3; i++) r = r * 31 + a * 5 + b * 3 + c;
    return r - a + (b << 1) - (c >> 1);
}

int main(void) {
    ASSERT(143, g(1, 2, 3, 4, 5, 6));
    ASSERT(7303294, g(-7, 100, 3000, 4, 50000, 600000));
    ASSERT(80442, rot(7, 11, 13));
    return test_done();
}
