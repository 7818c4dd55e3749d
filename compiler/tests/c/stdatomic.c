/* C11 7.17 <stdatomic.h> from phicc's own headers (repro-13), the
   <stdint.h> types it names through gcc's predefined __INT_LEAST and
   __INT_FAST macros, and a program's own offsetof before <stddef.h>. */
#define offsetof(type, member) ((unsigned long)&((type *)0)->member)
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include "test.h"

#ifdef __STDC_NO_ATOMICS__
#error "atomics are supported"
#endif

struct pair {
    char c;
    int i;
};

_Atomic int counter;
static atomic_flag flag = ATOMIC_FLAG_INIT;
static atomic_long total = ATOMIC_VAR_INIT(100);

int main(void) {
    atomic_int x = 5;
    uint32_t raw = 10;
    int expected = 42;
    ASSERT(5, atomic_fetch_add(&x, 3));
    ASSERT(8, atomic_exchange(&x, 42));
    ASSERT(1, atomic_compare_exchange_strong(&x, &expected, 7));
    ASSERT(7, atomic_load(&x));
    ASSERT(0, atomic_compare_exchange_strong(&x, &expected, 9));
    ASSERT(7, expected);
    while (!atomic_compare_exchange_weak_explicit(&x, &expected, 11, memory_order_acq_rel, memory_order_relaxed))
        ;
    ASSERT(11, atomic_load_explicit(&x, memory_order_acquire));
    atomic_fetch_add((_Atomic(uint32_t) *)&raw, 5);
    ASSERT(15, raw);
    counter += 2;
    counter++;
    ASSERT(3, counter);
    atomic_store(&total, 7);
    ASSERT(7, atomic_fetch_sub(&total, 2));
    ASSERT(5, atomic_fetch_or(&total, 8));
    ASSERT(13, atomic_fetch_and(&total, 6));
    ASSERT(4, atomic_fetch_xor_explicit(&total, 1, memory_order_relaxed));
    ASSERT(5, atomic_load(&total));
    ASSERT(0, atomic_flag_test_and_set(&flag));
    ASSERT(1, atomic_flag_test_and_set(&flag));
    atomic_flag_clear(&flag);
    ASSERT(0, atomic_flag_test_and_set_explicit(&flag, memory_order_acquire));
    atomic_uint_least8_t small;
    atomic_init(&small, 250);
    atomic_fetch_add(&small, 10);
    ASSERT(4, atomic_load(&small));
    ASSERT(1, sizeof(atomic_int_least8_t));
    ASSERT(2, sizeof(int_least16_t));
    ASSERT(8, sizeof(int_fast16_t));
    ASSERT(1, sizeof(uint_fast8_t));
    ASSERT(8, sizeof(atomic_uintptr_t));
    ASSERT(1, atomic_is_lock_free(&x));
    ASSERT(2, ATOMIC_INT_LOCK_FREE);
    ASSERT(2, ATOMIC_POINTER_LOCK_FREE);
    ASSERT(1, __GCC_ATOMIC_TEST_AND_SET_TRUEVAL);
    ASSERT(3, kill_dependency(3));
    atomic_thread_fence(memory_order_seq_cst);
    atomic_signal_fence(memory_order_seq_cst);
    ASSERT(4, offsetof(struct pair, i));
    return test_done();
}
