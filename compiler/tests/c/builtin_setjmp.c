/* gcc's __builtin_setjmp/__builtin_longjmp: a buffer of 5 words (which may
   be copied), a second return with 1, locals modified after the setjmp
   keep their values (gcc.c-torture/execute built-in-setjmp, pr60003,
   pr64242). The interpreter has no setjmp. */
// modes: native
#include "test.h"

static void *buf[5];
static unsigned long long jbuf[5];
static int depth;

__attribute__((noinline)) static void jump(void) {
    __builtin_longjmp(buf, 1);
}

__attribute__((noinline)) static void jump_deep(int n) {
    depth++;
    if (n == 0)
        __builtin_longjmp(&jbuf, 1);
    jump_deep(n - 1);
}

__attribute__((noinline)) static void jump_copy(void *p) {
    void *copy[32];
    __builtin_memcpy(copy, p, 5 * sizeof(void *));
    __builtin_memset(p, 0, 5 * sizeof(void *));
    __builtin_longjmp(copy, 1);
}

__attribute__((noinline)) static int modified_after(int x) {
    int a = 0;
    if (__builtin_setjmp(&jbuf) == 0) {
        for (;;) {
            a = x;
            jump_deep(3);
        }
    }
    return a;
}

static int counts(void) {
    int n = 0;
    int r = __builtin_setjmp(buf);
    n++;
    if (n < 4)
        jump();
    return r * 100 + n;
}

int main(void) {
    char *p = __builtin_alloca(16);
    __builtin_memcpy(p, "test", 5);
    int taken = 0;
    if (__builtin_setjmp(buf)) {
        taken++;
    } else {
        int *q = __builtin_alloca(64);
        q[3] = 5;
        jump();
    }
    ASSERT(1, taken);
    ASSERT('s', p[2]);
    ASSERT(7, modified_after(7));
    ASSERT(4, depth);
    ASSERT(104, counts());
    void *local[5];
    volatile int x = 0;
    char *volatile a = __builtin_alloca(x);
    char *volatile b = __builtin_alloca(x);
    if (!__builtin_setjmp(local))
        jump_copy(local);
    /* The stack pointer is back where it was at the setjmp. */
    char *next = b + (b - a);
    ASSERT(1, (char *)__builtin_alloca(x) == next);
    ASSERT(0, local[0] != 0);
    return test_done();
}
