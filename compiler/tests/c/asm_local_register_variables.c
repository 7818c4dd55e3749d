/* Local register variables (gcc manual, "Specifying Registers for Local
 * Variables"): `register T v asm("reg")` used as an asm operand with a
 * register constraint is in exactly that register, for inputs, outputs and
 * read-write operands; elsewhere it is an ordinary variable. The idiom of
 * raw syscall wrappers. From /work/shared/bugs/repro-09.c (TinyCC's tcctest
 * "regvar"), where phicc ignored the register. Asm is a black box to the
 * interpreter, so this file runs natively only. */
// modes: native
#include "test.h"

int getpid(void);

/* The input must be in the named register: the template reads that register. */
static long through_fixed_input(long v) {
    long out;
#if defined(__x86_64__)
    register long in __asm__("r10") = v;
    __asm__ volatile("mov %%r10, %0" : "=r"(out) : "r"(in));
#elif defined(__aarch64__)
    register long in __asm__("x8") = v;
    __asm__ volatile("mov %0, x8" : "=r"(out) : "r"(in));
#elif defined(__riscv)
    register long in __asm__("a7") = v;
    __asm__ volatile("mv %0, a7" : "=r"(out) : "r"(in));
#endif
    return out;
}

/* The output is read from the named register (a 32-bit name on x86-64). */
static int fixed_output(void) {
#if defined(__x86_64__)
    register int res __asm__("esi");
    __asm__ volatile("mov $0x4243, %%esi" : "=r"(res));
#elif defined(__aarch64__)
    register int res __asm__("w3");
    __asm__ volatile("mov w3, #0x4243" : "=r"(res));
#elif defined(__riscv)
    register int res __asm__("t1");
    __asm__ volatile("li t1, 0x4243" : "=r"(res));
#endif
    return res;
}

/* Read-write, in a callee-saved register (saved by the prologue). */
static long fixed_read_write(long v) {
#if defined(__x86_64__)
    register long x __asm__("rbx") = v;
    __asm__ volatile("add $5, %%rbx" : "+r"(x));
#elif defined(__aarch64__)
    register long x __asm__("x19") = v;
    __asm__ volatile("add x19, x19, #5" : "+r"(x));
#elif defined(__riscv)
    register long x __asm__("s2") = v;
    __asm__ volatile("addi s2, s2, 5" : "+r"(x));
#endif
    return x;
}

/* Two fixed inputs and an ordinary one: the ordinary one gets another register. */
static long three_inputs(long a, long b, long c) {
    long out;
#if defined(__x86_64__)
    register long ra __asm__("rdx") = a;
    register long rb __asm__("r9") = b;
    __asm__("lea (%%rdx,%%r9), %0\n\tadd %3, %0" : "=&r"(out) : "r"(ra), "r"(rb), "r"(c));
#elif defined(__aarch64__)
    register long ra __asm__("x2") = a;
    register long rb __asm__("x11") = b;
    __asm__("add %0, x2, x11\n\tadd %0, %0, %3" : "=&r"(out) : "r"(ra), "r"(rb), "r"(c));
#elif defined(__riscv)
    register long ra __asm__("a2") = a;
    register long rb __asm__("t2") = b;
    __asm__("add %0, a2, t2\n\tadd %0, %0, %3" : "=&r"(out) : "r"(ra), "r"(rb), "r"(c));
#endif
    return out;
}

/* A raw getpid system call, as libc-free code writes it. */
static long raw_getpid(void) {
#if defined(__x86_64__)
    register long nr __asm__("rax") = 39;
    __asm__ volatile("syscall" : "+r"(nr) : : "rcx", "r11", "memory");
    return nr;
#elif defined(__aarch64__)
    register long nr __asm__("x8") = 172;
    register long ret __asm__("x0");
    __asm__ volatile("svc #0" : "=r"(ret) : "r"(nr) : "memory");
    return ret;
#elif defined(__riscv)
    register long nr __asm__("a7") = 172;
    register long ret __asm__("a0");
    __asm__ volatile("ecall" : "=r"(ret) : "r"(nr) : "memory");
    return ret;
#endif
}

int main(void) {
    ASSERT(42, through_fixed_input(42));
    ASSERT(-7, through_fixed_input(-7));
    ASSERT(0x4243, fixed_output());
    ASSERT(15, fixed_read_write(10));
    ASSERT(111, three_inputs(1, 10, 100));
    ASSERT(1, raw_getpid() == getpid());
    /* Outside asm it is an ordinary variable. */
#if defined(__x86_64__)
    register int plain __asm__("r12") = 3;
#elif defined(__aarch64__)
    register int plain __asm__("x20") = 3;
#else
    register int plain __asm__("s3") = 3;
#endif
    plain = plain * 7;
    ASSERT(21, plain);
    return test_done();
}
