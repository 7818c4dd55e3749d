/* Record types of more than 2^61 bytes (more bits than 64 bits count):
   gcc accepts them up to PTRDIFF_MAX bytes; only their sizes and offsets
   are used (gcc.c-torture/execute 991014-1). */
#include "test.h"

#define BIG ((1L << 62) - 256)

struct huge_struct {
    short buf[BIG];
    int a;
    char b;
    int c : 3;
};

union huge_union {
    int a;
    char buf[BIG];
};

int main(void) {
    ASSERT((1UL << 63) - 512 + 8, sizeof(struct huge_struct));
    ASSERT(BIG, sizeof(union huge_union));
    ASSERT((1UL << 63) - 512, __builtin_offsetof(struct huge_struct, a));
    ASSERT((1UL << 63) - 512 + 4, (unsigned long)&((struct huge_struct *)0)->b);
    ASSERT(0, __builtin_offsetof(union huge_union, buf));
    return test_done();
}
