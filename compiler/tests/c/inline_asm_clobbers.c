// More inline asm with one template per target, chosen by #if
// (inline_asm.c has the basics): tied and named operands, memory operands
// read and written, immediates (%i on RISC-V), early clobbers, FP registers,
// a clobbered callee-saved register, and asm goto with and without outputs
// where both the fall-through and the goto edge are taken. gcc defines an
// asm goto output on every edge, phicc on the fall-through only (design.md),
// so the goto edges here never read an output.
// modes: native
#include "test.h"

#if defined(__x86_64__)
#define ADD(out, a, b) __asm__("addq %[y], %[o]" : [o] "=r"(out) : "0"(a), [y] "r"(b))
#define INC_MEM(m) __asm__("incl %0" : "+m"(m) : : "cc")
#define LOAD_MEM(out, m) __asm__("movl %1, %0" : "=r"(out) : "m"(m))
#define ADD_IMM(out, a) __asm__("leaq 300(%1), %0" : "=r"(out) : "r"(a))
#define EARLY(out, a, b) __asm__("movq %1, %0\n\taddq %2, %0\n\taddq %1, %0" : "=&r"(out) : "r"(a), "r"(b))
#define FADD(out, a, b) __asm__("addsd %2, %0" : "=x"(out) : "0"(a), "x"(b))
#define CALLEE_SAVED(out, a)                                                                                           \
    __asm__("movq %1, %%rbx\n\taddq $10, %%rbx\n\tmovq %%rbx, %0" : "=r"(out) : "r"(a) : "rbx")
#define GOTO_IF_EQUAL(out, a, b, label)                                                                                \
    __asm__ goto("movl $7, %0\n\tcmpl %2, %1\n\tje %l[" #label "]" : "=&r"(out) : "r"(a), "r"(b) : "cc" : label)
#define GOTO_IF_ZERO(a, label) __asm__ goto("testl %0, %0\n\tje %l[" #label "]" : : "r"(a) : "cc" : label)
#elif defined(__aarch64__)
#define ADD(out, a, b) __asm__("add %[o], %[o], %[y]" : [o] "=r"(out) : "0"(a), [y] "r"(b))
#define INC_MEM(m) __asm__("ldr w9, %0\n\tadd w9, w9, #1\n\tstr w9, %0" : "+m"(m) : : "x9")
#define LOAD_MEM(out, m) __asm__("ldr %w0, %1" : "=r"(out) : "m"(m))
#define ADD_IMM(out, a) __asm__("add %0, %1, %2" : "=r"(out) : "r"(a), "I"(300))
#define EARLY(out, a, b) __asm__("mov %0, %1\n\tadd %0, %0, %2\n\tadd %0, %0, %1" : "=&r"(out) : "r"(a), "r"(b))
#define FADD(out, a, b) __asm__("fadd %d0, %d1, %d2" : "=w"(out) : "w"(a), "w"(b))
#define CALLEE_SAVED(out, a) __asm__("mov x19, %1\n\tadd x19, x19, #10\n\tmov %0, x19" : "=r"(out) : "r"(a) : "x19")
#define GOTO_IF_EQUAL(out, a, b, label)                                                                                \
    __asm__ goto("mov %w0, #7\n\tcmp %w1, %w2\n\tb.eq %l[" #label "]" : "=&r"(out) : "r"(a), "r"(b) : "cc" : label)
#define GOTO_IF_ZERO(a, label) __asm__ goto("cbz %w0, %l[" #label "]" : : "r"(a) : : label)
#elif defined(__riscv)
#define ADD(out, a, b) __asm__("add %[o], %[o], %[y]" : [o] "=r"(out) : "0"(a), [y] "r"(b))
#define INC_MEM(m) __asm__("lw t0, %0\n\taddi t0, t0, 1\n\tsw t0, %0" : "+m"(m) : : "t0")
#define LOAD_MEM(out, m) __asm__("lw %0, %1" : "=r"(out) : "m"(m))
#define ADD_IMM(out, a) __asm__("add%i2 %0, %1, %2" : "=r"(out) : "r"(a), "rI"(300))
#define EARLY(out, a, b) __asm__("mv %0, %1\n\tadd %0, %0, %2\n\tadd %0, %0, %1" : "=&r"(out) : "r"(a), "r"(b))
#define FADD(out, a, b) __asm__("fadd.d %0, %1, %2" : "=f"(out) : "f"(a), "f"(b))
#define CALLEE_SAVED(out, a) __asm__("mv s1, %1\n\taddi s1, s1, 10\n\tmv %0, s1" : "=r"(out) : "r"(a) : "s1")
#define GOTO_IF_EQUAL(out, a, b, label)                                                                                \
    __asm__ goto("li %0, 7\n\tbeq %1, %2, %l[" #label "]" : "=&r"(out) : "r"(a), "r"(b) : : label)
#define GOTO_IF_ZERO(a, label) __asm__ goto("beqz %0, %l[" #label "]" : : "r"(a) : : label)
#else
#error "no inline asm templates for this target"
#endif

static long add(long a, long b) {
    long r;
    ADD(r, a, b);
    return r;
}

static int memory(int *p) {
    int r;
    INC_MEM(*p);
    LOAD_MEM(r, *p);
    return r;
}

static long add_imm(long a) {
    long r;
    ADD_IMM(r, a);
    return r;
}

static long early(long a, long b) {
    long r;
    EARLY(r, a, b);
    return r;
}

static double fadd(double a, double b) {
    double r;
    FADD(r, a, b);
    return r;
}

static long callee_saved(long a) {
    long r;
    CALLEE_SAVED(r, a);
    return r;
}

// Fall-through: the output (7) plus 100; goto edge: a value not from the asm.
static int goto_equal(int a, int b) {
    int x;
    GOTO_IF_EQUAL(x, a, b, same);
    return x + 100;
same:
    return -a;
}

// asm goto inside a loop: both edges taken, locals live across it.
static int count_nonzero(int *v, int n) {
    int count = 0, last = -1;
    for (int i = 0; i < n; i++) {
        int x;
        GOTO_IF_EQUAL(x, v[i], 0, zero);
        count += x - 6;
        last = i;
        continue;
    zero:
        count += 1000;
    }
    return count * 100 + last;
}

static int skip_zeros(int *v, int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
        GOTO_IF_ZERO(v[i], skip);
        sum += v[i] * (i + 1);
    skip:;
    }
    return sum;
}

int main(void) {
    ASSERT(42, add(40, 2));
    ASSERT(-5, add(-10, 5));
    int m = 41;
    ASSERT(42, memory(&m));
    ASSERT(42, m);
    ASSERT(310, add_imm(10));
    ASSERT(10, early(3, 4));
    ASSERT(15, (long)(fadd(1.5, 2.25) * 4));
    ASSERT(19, callee_saved(9));
    ASSERT(-3, goto_equal(3, 3));
    ASSERT(107, goto_equal(3, 4));
    int v[6] = { 5, 0, 7, 0, 0, 9 };
    ASSERT(300305, count_nonzero(v, 6));
    ASSERT(5 + 21 + 54, skip_zeros(v, 6));
    return test_done();
}
