/* An unsigned bit-field narrower than int promotes to int (C11 6.3.1.1p2),
 * but a cast to its declared type converts it to a full unsigned int first
 * (6.5.4p5), so the arithmetic is unsigned. From gcc.c-torture/execute/
 * bitfld-1.c, where the cast was dropped as a no-op. */
#include "test.h"

struct x {
    signed int i : 7;
    unsigned int u : 7;
    unsigned int w : 32;
    unsigned long long l : 20;
};

int main(void) {
    struct x bit;
    int i = -13;
    bit.u = 61;
    bit.i = -13;
    bit.w = 61;
    bit.l = 61;
    unsigned int unsigned_result = -13U % 61;
    int signed_result = -13 % 61;
    ASSERT(signed_result, i % bit.u);
    ASSERT(signed_result, bit.i % bit.u);
    ASSERT(unsigned_result, i % (unsigned int)bit.u);
    ASSERT(unsigned_result, bit.i % (unsigned int)bit.u);
    ASSERT(unsigned_result, (unsigned int)bit.i % (unsigned int)bit.u);
    /* A 32-bit unsigned bit-field is already unsigned int. */
    ASSERT(unsigned_result, i % bit.w);
    ASSERT(unsigned_result, i % (unsigned int)bit.w);
    /* Comparisons see the same difference. */
    ASSERT(1, -1 < bit.u);
    ASSERT(0, -1 < (unsigned int)bit.u);
    ASSERT(1, -1 < bit.l);
    ASSERT(0, -1 < (unsigned long long)bit.l);
    ASSERT(4, sizeof(bit.u + 0));
    ASSERT(4, sizeof((unsigned int)bit.u + 0));
    ASSERT(8, sizeof((unsigned long long)bit.l + 0));
    return test_done();
}
