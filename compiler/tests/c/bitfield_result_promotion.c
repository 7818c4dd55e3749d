/* gcc gives a comma expression whose right operand is a bit-field, and an
 * assignment, compound assignment or ++/-- of a bit-field, the bit-field's
 * width for the integer promotions: an unsigned bit-field narrower than int
 * stays int through them (C11 6.3.1.1p2 for the field itself; the width is
 * gcc's choice, J.3.9). From Csmith --seed 4091561791, where
 * `l < (r | ~(x, g.f1))` compared with 0xffffffff instead of -1. */
#include "test.h"

struct s {
    unsigned f1 : 29;
    signed f2 : 5;
    unsigned long long g : 40;
    unsigned f3 : 32;
    unsigned char c : 3;
};

static struct s s;

int main(void) {
    int x = 0;
    unsigned long long big = 0x7A2F3F61E00992A5ULL;
    ASSERT(1, (~(x, s.f1)) < 0);
    ASSERT(1, ((x = 1), s.f1) - 1 < 0);
    ASSERT(1, big < (0 | ~(x, s.f1)));
    ASSERT(4, sizeof((x, s.f1)));
    ASSERT(1, (s.f1 = 0) - 1 < 0);
    ASSERT(1, (s.f1++) - 1 < 0);
    ASSERT(1, (++s.f1) - 5 < 0);
    ASSERT(1, (s.f1 += 2) - 9 < 0);
    ASSERT(1, (s.f1--) - 9 < 0);
    ASSERT(0x1fffffff, (s.f1 = -1) + 0);
    /* Wider than int: arithmetic wraps at the field's 40 bits. */
    ASSERT(0xffffffffffLL, (x, s.g) - 1);
    ASSERT(0xfffffffffeLL, (s.g = 5) - 7);
    ASSERT(0xfffffffff9LL, (s.g += 5) - 17);
    ASSERT(0xfffffffff9LL, (s.g++) - 17);
    /* Signed and narrow fields. */
    ASSERT(-1, (s.f2 = 31) + 0);
    ASSERT(-13, (s.f2 += 20) + 0);
    ASSERT(-2, (s.c = 9) - 3);
    ASSERT(-2, (x, s.c) - 3);
    ASSERT(-4, (s.c *= 3) - 7);
    /* A 32-bit unsigned field is unsigned int, and a cast ends it all. */
    ASSERT(0, (s.f3 = 0) - 1 < 0);
    ASSERT(0, (x, s.f3) - 1 < 0);
    ASSERT(0, (unsigned)(x, s.f1) - 1 < 0);
    return test_done();
}
