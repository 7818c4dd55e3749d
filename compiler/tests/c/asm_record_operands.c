/* A record of 1, 2, 4 or 8 bytes as a register asm operand travels as its
 * bytes in one integer register, as gcc gives it an integer mode; phicc
 * passed its address instead. From /work/shared/bugs/repro-10.c (TinyCC's
 * tcctest "asmstr"). The interpreter treats asm as a black box. */
// modes: native
#include "test.h"

struct S { unsigned long addr; };
/* aarch64's gcc gives a record an integer mode only when it is aligned to its size. */
struct H { unsigned int lo : 16, hi : 16; };
struct B { unsigned char c; };
struct W { unsigned short w; };

/* Tied to a register output: the value comes back unchanged. */
static unsigned long tied_record(struct S s) {
    unsigned long r;
    __asm__ volatile("" : "=r"(r) : "0"(s));
    return r;
}

static unsigned int four_bytes(struct H h) {
    unsigned int r;
    __asm__ volatile("" : "=r"(r) : "0"(h));
    return r;
}

/* Through a register input and a real move. */
static unsigned long moved(struct S s) {
    unsigned long r;
#if defined(__x86_64__)
    __asm__("movq %1, %0" : "=r"(r) : "r"(s));
#elif defined(__aarch64__)
    __asm__("mov %0, %1" : "=r"(r) : "r"(s));
#elif defined(__riscv)
    __asm__("mv %0, %1" : "=r"(r) : "r"(s));
#endif
    return r;
}

/* A record as a register output: its bytes are written. */
static struct H make_h(unsigned int v) {
    struct H h;
#if defined(__x86_64__)
    __asm__("movl %1, %0" : "=r"(h) : "r"(v));
#elif defined(__aarch64__)
    __asm__("mov %w0, %w1" : "=r"(h) : "r"(v));
#elif defined(__riscv)
    __asm__("mv %0, %1" : "=r"(h) : "r"(v));
#endif
    return h;
}

int main(void) {
    struct S s = {0x1234};
    ASSERT(0x1234, tied_record(s));
    ASSERT(0x123456789abcdefUL, tied_record((struct S){0x123456789abcdefUL}));
    ASSERT(0xbeef, moved((struct S){0xbeef}));
    struct H h = {0x5678, 0x1234};
    ASSERT(0x12345678, four_bytes(h));
    struct H m = make_h(0x00070005);
    ASSERT(5, m.lo);
    ASSERT(7, m.hi);
    struct B b = {0x5a};
    unsigned char rb;
    __asm__ volatile("" : "=r"(rb) : "0"(b));
    ASSERT(0x5a, rb);
    struct W w = {0x4321};
    unsigned short rw;
    __asm__ volatile("" : "=r"(rw) : "0"(w));
    ASSERT(0x4321, rw);
    /* A memory operand is still the record in memory. */
    unsigned long first;
#if defined(__x86_64__)
    __asm__("movq %1, %0" : "=r"(first) : "m"(s));
#elif defined(__aarch64__)
    __asm__("ldr %0, %1" : "=r"(first) : "m"(s));
#elif defined(__riscv)
    __asm__("ld %0, %1" : "=r"(first) : "m"(s));
#endif
    ASSERT(0x1234, first);
    return test_done();
}
