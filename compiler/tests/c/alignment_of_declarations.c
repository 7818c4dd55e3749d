/* Alignment as gcc gives it to declarations:
 * - `aligned(N)` on a typedef of a scalar sets its alignment, lower as well
 *   as higher ("Common Type Attributes", aligned): a struct member of that
 *   type is laid out with it (an ABI matter: Linux's __aligned_u64-style
 *   types). From /work/shared/bugs/repro-11.c (TinyCC tcctest aligntest9).
 * - GNU `__alignof__` of a declared object, member or function is the
 *   declaration's alignment, `aligned` included (gcc's DECL_ALIGN). From
 *   gcc.c-torture/execute/align-3.c and repro-11.c. */
#include "test.h"

typedef unsigned long long __attribute__((aligned(4))) u64_a4;
typedef int __attribute__((aligned(16))) int_a16;
struct P { unsigned int n; u64_a4 v; };
struct P2 { char c; u64_a4 arr[2]; };
struct Q { int i; };
struct Q q[2] __attribute__((aligned(16)));
struct R { char a; int_a16 b; };
struct M { char a; int b __attribute__((aligned(16))); char c __attribute__((aligned(2))); char d; };

void func(void) __attribute__((aligned(256)));
void func(void) {}

int x __attribute__((aligned(32)));
static char c64 __attribute__((aligned(64)));
_Alignas(8) static char c8;

static unsigned long long read_v(struct P *p) { return p->v; }

int main(void) {
    ASSERT(12, sizeof(struct P));
    ASSERT(4, _Alignof(struct P));
    ASSERT(4, __alignof__(u64_a4));
    ASSERT(4, _Alignof(u64_a4[3]));
    ASSERT(4, __builtin_offsetof(struct P, v));
    ASSERT(20, sizeof(struct P2));
    ASSERT(4, __builtin_offsetof(struct P2, arr));
    ASSERT(8, sizeof(u64_a4));
    ASSERT(16, __alignof__(q));
    ASSERT(16, __alignof__(int_a16));
    ASSERT(32, sizeof(struct R));
    ASSERT(16, __builtin_offsetof(struct R, b));
    /* The members at their lowered alignment are read and written whole. */
    struct P ps[2] = {{1, 0x1122334455667788ULL}, {2, 0x99aabbccddeeff00ULL}};
    ASSERT(1, read_v(&ps[0]) == 0x1122334455667788ULL);
    ASSERT(1, read_v(&ps[1]) == 0x99aabbccddeeff00ULL);
    ps[1].v += 1;
    ASSERT(1, ps[1].v == 0x99aabbccddeeff01ULL);
    ASSERT(2, ps[1].n);
    /* __alignof__ of declarations. */
    ASSERT(256, __alignof__(func));
    ASSERT(1, ((unsigned long)&func & 255) == 0);
    ASSERT(32, __alignof__(x));
    ASSERT(64, __alignof__(c64));
    ASSERT(8, __alignof__(c8));
    ASSERT(4, __alignof__(int));
    struct M m;
    ASSERT(16, __alignof__(m.b));
    ASSERT(2, __alignof__(m.c));
    ASSERT(1, __alignof__(m.d));
    ASSERT(16, __alignof__(q[0].i) * 4);
    int local __attribute__((aligned(128)));
    local = 0;
    ASSERT(128, __alignof__(local));
    ASSERT(1, ((unsigned long)&local & 127) == 0);
    return test_done();
}
