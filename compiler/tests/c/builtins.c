/* GNU builtins: byte swaps, bit counts, overflow checks, atomics, alloca,
   plus inline asm whose meaning does not depend on the target. */
#include "test.h"

/* Declared by hand (no <alloca.h>): still the builtin, as in gcc; there is
   no library function `alloca` to call (repro-12). */
void *alloca(unsigned long size);
void *__builtin_alloca(unsigned long size);

static int sum_alloca(int n) {
    int *v = alloca(n * sizeof(int));
    int *w = __builtin_alloca(n * sizeof(int));
    int s = 0;
    for (int i = 0; i < n; i++)
        v[i] = i, w[i] = 2 * i;
    for (int i = 0; i < n; i++)
        s += v[i] + w[i];
    return s;
}

int main(void) {
    ASSERT(0x3412, __builtin_bswap16(0x1234));
    ASSERT(0x78563412, __builtin_bswap32(0x12345678));
    ASSERT(0x0807060504030201LL, __builtin_bswap64(0x0102030405060708ULL));
    ASSERT(31, __builtin_clz(1));
    ASSERT(0, __builtin_clz(0x80000000u));
    ASSERT(63, __builtin_clzl(1));
    ASSERT(59, __builtin_clzll(16));
    ASSERT(4, __builtin_ctz(16));
    ASSERT(40, __builtin_ctzll(1ULL << 40));
    ASSERT(8, __builtin_popcount(0xff));
    ASSERT(64, __builtin_popcountll(~0ULL));
    ASSERT(1, __builtin_parity(7));
    ASSERT(0, __builtin_parity(3));
    ASSERT(0, __builtin_ffs(0));
    ASSERT(1, __builtin_ffs(1));
    ASSERT(5, __builtin_ffs(0x10));
    int r;
    ASSERT(0, __builtin_add_overflow(1, 2, &r));
    ASSERT(3, r);
    ASSERT(1, __builtin_add_overflow(2147483647, 1, &r));
    ASSERT(-2147483648LL, r);
    ASSERT(1, __builtin_sub_overflow(0u, 1, &r) == 0);
    ASSERT(-1, r);
    unsigned ur;
    ASSERT(1, __builtin_sub_overflow(0, 1, &ur));
    ASSERT(4294967295LL, ur);
    long lr;
    ASSERT(0, __builtin_mul_overflow(1L << 31, 4, &lr));
    ASSERT(1L << 33, lr);
    ASSERT(1, __builtin_mul_overflow(1L << 62, 4, &lr));
    ASSERT(0, lr);
    int a = 5;
    ASSERT(5, __atomic_load_n(&a, __ATOMIC_SEQ_CST));
    __atomic_store_n(&a, 7, __ATOMIC_RELEASE);
    ASSERT(7, a);
    ASSERT(7, __atomic_fetch_add(&a, 3, __ATOMIC_SEQ_CST));
    ASSERT(10, a);
    ASSERT(8, __atomic_sub_fetch(&a, 2, __ATOMIC_SEQ_CST));
    ASSERT(8, __atomic_exchange_n(&a, 1, __ATOMIC_ACQ_REL));
    ASSERT(1, a);
    int expected = 1;
    ASSERT(1, __atomic_compare_exchange_n(&a, &expected, 9, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    ASSERT(9, a);
    expected = 4;
    ASSERT(0, __atomic_compare_exchange_n(&a, &expected, 2, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    ASSERT(9, expected);
    ASSERT(9, __sync_fetch_and_or(&a, 6));
    ASSERT(15, a);
    ASSERT(3, __sync_and_and_fetch(&a, 3));
    ASSERT(3, __sync_val_compare_and_swap(&a, 3, 12));
    ASSERT(12, a);
    ASSERT(1, __sync_bool_compare_and_swap(&a, 12, 13));
    ASSERT(0, __sync_bool_compare_and_swap(&a, 12, 14));
    ASSERT(13, a);
    __sync_synchronize();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    long la = 100;
    ASSERT(100, __atomic_fetch_xor(&la, 1, __ATOMIC_RELAXED));
    ASSERT(101, la);
    char *mem = __builtin_alloca(32);
    for (int i = 0; i < 32; i++)
        mem[i] = (char)i;
    ASSERT(31, mem[31]);
    ASSERT(135, sum_alloca(10));
    int x = 41;
    __asm__ volatile("" ::: "memory");
    __asm__ volatile("" : : "r"(x));
    ASSERT(41, x);
    return test_done();
}
