/* __builtin_return_address with a level above 0, as gcc does it: x86-64
   walks the frame-pointer chain, AArch64 and RISC-V give a null pointer
   (gcc.c-torture/execute 20010122-1). The interpreter has no frames. */
// modes: native
#include "test.h"

void *ret0[3], *ret1[3];

__attribute__((noinline)) static void *inner(int k) {
    ret1[k] = __builtin_return_address(1);
    return __builtin_return_address(0);
}

__attribute__((noinline)) static void middle(int k) {
    char *save = __builtin_alloca(4);
    save[0] = 1;
    ret0[k] = __builtin_return_address(0);
    inner(k);
}

__attribute__((noinline)) static void *deeper(int level) {
    switch (level) {
    case 1: return __builtin_return_address(1);
    case 2: return __builtin_return_address(2);
    }
    return 0;
}

int main(void) {
    for (int k = 0; k < 3; k++)
        middle(k);
    ASSERT(1, ret0[0] == ret0[1] && ret0[1] == ret0[2]);
    ASSERT(1, ret1[0] == ret1[1] && ret1[1] == ret1[2]);
    /* The caller's return address, or null where gcc gives null. */
    ASSERT(1, ret1[0] == 0 || ret1[0] == ret0[0]);
    ASSERT(1, ret1[0] != 0 || sizeof(void *) == 8);
    ASSERT(1, deeper(0) == 0);
    return test_done();
}
