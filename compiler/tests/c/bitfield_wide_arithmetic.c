/* GCC gives a bit-field wider than int but narrower than its declared type
 * (`unsigned long long b : 40`) a type of exactly its width, so arithmetic
 * on it wraps at that width: the operation is done in the operand type of
 * greatest precision (the bit-field's, against an int; a 64-bit operand's
 * otherwise). Bit-field widths and types are implementation-defined (C11
 * 6.7.2.1p5, J.3.9); this is GCC's choice. From gcc.c-torture/execute/
 * bitfld-3.c, bitfld-5.c, pr32244-1.c and pr34971.c, where phicc computed
 * in 64 bits. */
#include "test.h"

struct s {
    unsigned long long u33 : 33;
    unsigned long long u40 : 40;
    unsigned long long u41 : 41;
    long long s40 : 40;
};

struct t {
    unsigned long long a : 2;
    unsigned long long b : 40;
    unsigned long long c : 22;
};

static unsigned long long via_param(struct t s) { return ((unsigned long long)(s.b - 8)) + 8; }

static unsigned long long rotate40(struct s *x) { return (x->u40 << 8) + (x->u40 >> 32); }

int main(void) {
    struct s a = {0x100000, 0x100000, 0x100000, 0};
    struct s b = {0x100000000ULL, 0x100000000ULL, 0x100000000ULL, 0};
    struct s c = {0x1FFFFFFFFULL, 0, 0, -1};
    /* Products wrap at the wider operand's width (bitfld-3). */
    ASSERT(0, a.u33 * a.u33);
    ASSERT(0, a.u33 * a.u40);
    ASSERT(1, a.u33 * a.u41 == 0x10000000000ULL);
    ASSERT(0, b.u33 + b.u33);
    ASSERT(1, b.u33 + b.u40 == 0x200000000ULL);
    ASSERT(1, a.u33 - b.u33 == 0x100100000ULL);
    ASSERT(1, a.u33 - b.u40 == 0xFF00100000ULL);
    ASSERT(1, a.u41 - b.u33 == 0x1FF00100000ULL);
    /* Against an int constant, the bit-field's width; against a 64-bit
     * operand, 64 bits. */
    ASSERT(0, c.u33 + 1);
    ASSERT(1, c.u33 + 1ULL == 0x200000000ULL);
    ASSERT(1, c.u33 * 2 == 0x1FFFFFFFEULL);
    ASSERT(1, -a.u33 == 0x1FFF00000ULL);
    ASSERT(1, ~a.u40 == 0xFFFFEFFFFFULL);
    ASSERT(1, (a.u33 / 2) + (a.u33 / 2) == 0x100000);
    /* Shifts wrap at the left operand's width (pr32244-1, pr34971). */
    struct s x = {0, 0x0100, 0, 0};
    ASSERT(0, x.u40 << 32);
    ASSERT(1, (x.u40 << 31) == 0x8000000000ULL);
    x.u40 = 0x0100000001ULL;
    ASSERT(0x101, rotate40(&x));
    x.u40 = 0x0100000000ULL;
    ASSERT(1, rotate40(&x));
    /* A cast to the declared type ends the reduction (bitfld-5). */
    ASSERT(10, via_param((struct t){1, 10, 3}));
    ASSERT(1, via_param((struct t){1, 2, 3}) == 0x10000000002ULL);
    /* Signed: the sign of the 40-bit type (overflow would be undefined). */
    ASSERT(-1, c.s40);
    ASSERT(1, c.s40 - 5 == -6);
    ASSERT(1, c.s40 * 2 == -2);
    /* Increments store the reduced value (bitfld-3). */
    ASSERT(0, ++c.u33);
    ASSERT(1, --c.u40 == 0xFFFFFFFFFFULL);
    ASSERT(0, c.u41--);
    ASSERT(1, c.u41 == 0x1FFFFFFFFFFULL);
    c.u33 += 0x1FFFFFFFFULL + 2;
    ASSERT(1, c.u33);
    /* Narrower than int: promoted to int, no wrapping at the width. */
    struct { unsigned long long n : 20; } small = {0xFFFFF};
    ASSERT(0x100000, small.n + 1);
    return test_done();
}
