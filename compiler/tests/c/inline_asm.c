/* GNU extended asm (gcc manual, "Extended Asm") with one template per
   target, chosen by the target's predefined macro: register, FP, memory
   and immediate operands, read-write ("+r", "+m") and early-clobber
   outputs, tied and named operands, local numeric labels, and asm goto
   with an output, taking both the fall-through and the goto edge inside
   loops (so that mem2reg builds phis around it). On a goto edge the output
   is never read (outputs are written on the fall-through path only). The
   interpreter treats asm as a black box, so this file runs natively only. */
// modes: native
#include "test.h"

static long add(long a, long b) {
    long r;
#if defined(__x86_64__)
    __asm__("movq %1, %0\n\taddq %2, %0" : "=&r"(r) : "r"(a), "r"(b));
#elif defined(__aarch64__)
    __asm__("add %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
#elif defined(__riscv)
    __asm__("add %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
#endif
    return r;
}

static int inc_rw(int x) {
#if defined(__x86_64__)
    __asm__("addl $1, %0" : "+r"(x));
#elif defined(__aarch64__)
    __asm__("add %w0, %w0, #1" : "+r"(x));
#elif defined(__riscv)
    __asm__("addiw %0, %0, 1" : "+r"(x));
#endif
    return x;
}

static long tied(long x, long y) {
    long r;
#if defined(__x86_64__)
    __asm__("addq %[y], %0" : "=r"(r) : "0"(x), [y] "r"(y));
#elif defined(__aarch64__)
    __asm__("add %0, %0, %[y]" : "=r"(r) : "0"(x), [y] "r"(y));
#elif defined(__riscv)
    __asm__("add %0, %0, %[y]" : "=r"(r) : "0"(x), [y] "r"(y));
#endif
    return r;
}

/* An input tied to an output by the output's name ("[v]"), as cgen writes it. */
static long tied_by_name(long x, long y) {
    long r;
    __asm__("" : [v] "=r"(r) : "[v]"(x + y));
    return r;
}

static long named_mul(long a, long b) {
    long out;
#if defined(__x86_64__)
    __asm__("movq %[a], %[out]\n\timulq %[b], %[out]" : [out] "=&r"(out) : [a] "r"(a), [b] "r"(b));
#elif defined(__aarch64__)
    __asm__("mul %[out], %[a], %[b]" : [out] "=r"(out) : [a] "r"(a), [b] "r"(b));
#elif defined(__riscv)
    __asm__("mul %[out], %[a], %[b]" : [out] "=r"(out) : [a] "r"(a), [b] "r"(b));
#endif
    return out;
}

static void bump(int *p) {
#if defined(__x86_64__)
    __asm__("addl $3, %0" : "+m"(*p) : : "cc");
#elif defined(__aarch64__)
    __asm__("ldr w9, %0\n\tadd w9, w9, #3\n\tstr w9, %0" : "+m"(*p) : : "x9");
#elif defined(__riscv)
    __asm__("lw t0, %0\n\taddi t0, t0, 3\n\tsw t0, %0" : "+m"(*p) : : "t0");
#endif
}

static int load_m(int *p) {
    int r;
#if defined(__x86_64__)
    __asm__("movl %1, %0" : "=r"(r) : "m"(*p));
#elif defined(__aarch64__)
    __asm__("ldr %w0, %1" : "=r"(r) : "m"(*p));
#elif defined(__riscv)
    __asm__("lw %0, %1" : "=r"(r) : "m"(*p));
#endif
    return r;
}

static long add_imm(long x) {
#if defined(__x86_64__)
    __asm__("addq %1, %0\n\taddq $%c2, %0" : "+r"(x) : "i"(100), "n"(20));
#elif defined(__aarch64__)
    __asm__("add %0, %0, %1\n\tadd %0, %0, #%2" : "+r"(x) : "i"(100), "n"(20));
#elif defined(__riscv)
    __asm__("addi %0, %0, %1\n\taddi %0, %0, %2" : "+r"(x) : "i"(100), "n"(20));
#endif
    return x;
}

static double fadd(double a, double b) {
    double r;
#if defined(__x86_64__)
    __asm__("addsd %2, %0" : "=x"(r) : "0"(a), "x"(b));
#elif defined(__aarch64__)
    __asm__("fadd %d0, %d1, %d2" : "=w"(r) : "w"(a), "w"(b));
#elif defined(__riscv)
    __asm__("fadd.d %0, %1, %2" : "=f"(r) : "f"(a), "f"(b));
#endif
    return r;
}

/* 2 * n by a loop inside the asm (a local numeric label). */
static int count_loop(int n) {
    int r;
#if defined(__x86_64__)
    __asm__("xorl %0, %0\n1:\n\taddl $2, %0\n\tdecl %1\n\tjnz 1b" : "=&r"(r), "+r"(n) : : "cc");
#elif defined(__aarch64__)
    __asm__("mov %w0, #0\n1:\n\tadd %w0, %w0, #2\n\tsubs %w1, %w1, #1\n\tb.ne 1b" : "=&r"(r), "+r"(n) : : "cc");
#elif defined(__riscv)
    __asm__("li %0, 0\n1:\n\taddiw %0, %0, 2\n\taddiw %1, %1, -1\n\tbnez %1, 1b" : "=&r"(r), "+r"(n));
#endif
    return r;
}

/* y = 2 * x on the fall-through path; a jump to `negative` when x < 0. */
#if defined(__x86_64__)
#define DOUBLE_OR_JUMP(y, x, label)                                                                                    \
    __asm__ goto("movl %1, %0\n\taddl %0, %0\n\ttestl %1, %1\n\tjs %l2" : "=&r"(y) : "r"(x) : "cc" : label)
#elif defined(__aarch64__)
#define DOUBLE_OR_JUMP(y, x, label)                                                                                    \
    __asm__ goto("lsl %w0, %w1, #1\n\ttbnz %w1, #31, %l2" : "=&r"(y) : "r"(x) : : label)
#elif defined(__riscv)
#define DOUBLE_OR_JUMP(y, x, label) __asm__ goto("slliw %0, %1, 1\n\tbltz %1, %l2" : "=&r"(y) : "r"(x) : : label)
#endif

static int goto_once(int x) {
    int y = 5;
    DOUBLE_OR_JUMP(y, x, negative);
    return y + 1;
negative:
    return -100;
}

static int goto_loop(int n) {
    int sum = 0, last = 0, jumps = 0;
    for (int i = -n; i <= n; i++) {
        int y;
        DOUBLE_OR_JUMP(y, i, negative);
        sum += y;
        last = y;
        continue;
    negative:
        jumps++;
        sum -= 1;
    }
    return sum * 1000 + last * 10 + jumps;
}

/* The swap pattern around an asm goto: a, b rotate on every iteration. */
static int goto_swap(int n) {
    int a = 1, b = 2, t;
    for (int i = 0; i < n; i++) {
        int y;
        DOUBLE_OR_JUMP(y, i - 2, skip);
        a += y;
    skip:
        t = a;
        a = b;
        b = t;
    }
    return a * 100 + b;
}

int main(void) {
    int m = 39;
    ASSERT(42, add(40, 2));
    ASSERT(-7, add(-10, 3));
    ASSERT(8, inc_rw(7));
    ASSERT(-2147483648, inc_rw(2147483647));
    ASSERT(15, tied(10, 5));
    ASSERT(15, tied_by_name(10, 5));
    ASSERT(-42, named_mul(6, -7));
    bump(&m);
    ASSERT(42, m);
    ASSERT(42, load_m(&m));
    ASSERT(123, add_imm(3));
    ASSERT(375, (long)(fadd(1.5, 2.25) * 100));
    ASSERT(20, count_loop(10));
    ASSERT(7, goto_once(3));
    ASSERT(1, goto_once(0));
    ASSERT(-100, goto_once(-1));
    ASSERT(9063, goto_loop(3));
    ASSERT(0, goto_loop(0));
    ASSERT(405, goto_swap(5));
    return test_done();
}
