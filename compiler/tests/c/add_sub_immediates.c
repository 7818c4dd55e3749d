/* Adding and subtracting constants near the ends of each width: AArch64 and
 * RISC-V read such a constant sign-extended from its type's width, so that
 * `x + 0xffffffffu` is a subtraction of 1 in 32 bits, while the 64-bit
 * `x + 0xffffffff` is not; the 32-bit results must still read back as the
 * unsigned numbers they are. */
#include "test.h"

typedef unsigned long long u64;

u64 add_u64_ffffffff(u64 x) { return x + 0xffffffffULL; }
u64 sub_u64_ffffffff(u64 x) { return x - 0xffffffffULL; }
u64 add_u64_fffff001(u64 x) { return x + 0xfffff001ULL; }
u64 add_u64_all_ones(u64 x) { return x + ~0ULL; }
u64 sub_u64_all_ones(u64 x) { return x - ~0ULL; }
long long sub_i64_ffffffff(long long x) { return x - 0xffffffffLL; }
long long add_i64_80000000(long long x) { return x + 0x80000000LL; }
long add_long_minus_one(long x) { return x + -1L; }
long sub_long_minus_4096(long x) { return x - -4096L; }

unsigned add_u32_ffffffff(unsigned x) { return x + 0xffffffffu; }
unsigned sub_u32_ffffffff(unsigned x) { return x - 0xffffffffu; }
unsigned add_u32_fffff001(unsigned x) { return x + 0xfffff001u; }
unsigned sub_u32_fffff001(unsigned x) { return x - 0xfffff001u; }
u64 widen_u32_sum(unsigned x) { return x + 0xffffffffu; }
int u32_sum_above(unsigned x) { return x + 0xffffffffu > 5u; }

int add_int(int x, int k) {
    switch (k) {
    case 0: return x + -4095;
    case 1: return x - -4095;
    case 2: return x + 4096;
    case 3: return x - 4096;
    default: return x + 4095;
    }
}

unsigned short add_u16_ffff(unsigned short x) { return x + 0xffff; }
unsigned char add_u8_ff(unsigned char x) { return x + 0xff; }
unsigned char sub_u8_ff(unsigned char x) { return x - 0xff; }

/* Csmith's shape: two unsigned counters counted down to zero. */
unsigned count_down(unsigned a, unsigned b) {
again:
    a--;
    b--;
    if (b)
        goto again;
    return a;
}

int main(void) {
    ASSERT(4294967296LL, add_u64_ffffffff(1));
    ASSERT(1, sub_u64_ffffffff(0x100000000ULL));
    ASSERT(4294963201LL, add_u64_fffff001(0));
    ASSERT(4, add_u64_all_ones(5));
    ASSERT(6, sub_u64_all_ones(5));
    ASSERT(-4294967295LL, sub_i64_ffffffff(0));
    ASSERT(2147483648LL, add_i64_80000000(0));
    ASSERT(-1, add_long_minus_one(0));
    ASSERT(4096, sub_long_minus_4096(0));

    ASSERT(4294967295LL, add_u32_ffffffff(0));
    ASSERT(4, add_u32_ffffffff(5));
    ASSERT(6, sub_u32_ffffffff(5));
    ASSERT(1, add_u32_fffff001(0x1000));
    ASSERT(4095, sub_u32_fffff001(0));
    ASSERT(4294967295LL, widen_u32_sum(0));
    ASSERT(1, u32_sum_above(0));
    ASSERT(0, u32_sum_above(6));

    ASSERT(-4095, add_int(0, 0));
    ASSERT(4096, add_int(1, 1));
    ASSERT(4097, add_int(1, 2));
    ASSERT(-4096, add_int(0, 3));
    ASSERT(0, add_int(-4095, 4));

    ASSERT(0, add_u16_ffff(1));
    ASSERT(2, add_u8_ff(3));
    ASSERT(4, sub_u8_ff(3));

    ASSERT(6, count_down(0x10, 10));
    ASSERT(4294967295LL, count_down(0, 1));
    return test_done();
}
