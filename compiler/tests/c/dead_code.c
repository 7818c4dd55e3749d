/* Code a program never runs needs no definitions at link time, as with
 * gcc -O0 (shared/bugs repro-07): an unreferenced `static inline` function
 * is not emitted, so the undefined function only it calls stays unresolved
 * harmlessly. Referenced ones, and ones reached only through other internal
 * symbols, are kept. Code under a constant-false condition (repro-08: `if (0)`,
 * `0 && f()`, `0 ? f() : x`, `sizeof(long) == 4`) is dropped with its
 * calls, as gcc -O0 does. (Unreferenced plain `static` functions and data, which
 * gcc -O0 still emits, are checked by tests/phicc_cli.rs.) */
#include "test.h"

extern int not_linked_in(void);
extern int only_on_other_platforms(void);

static inline int wrapper(void) { return not_linked_in(); }
static inline int calls_wrapper(void) { return wrapper() + 1; }

static int leaf(void) { return 5; }
static int via_pointer(void) { return 7; }
static int (*const kept_table[])(void) = {via_pointer};
static inline int used_inline(void) { return leaf() + 1; }

static int constant_conditions(void) {
    int n = 0;
    if (sizeof(long) == 4)
        only_on_other_platforms();
    if (0)
        n += only_on_other_platforms();
    else
        n += 1;
    if (1)
        n += 10;
    else
        only_on_other_platforms();
    int x = 0 ? only_on_other_platforms() : 7;
    int y = 1 ? 8 : only_on_other_platforms();
    if (0 && only_on_other_platforms())
        n += 1000;
    if (1 || only_on_other_platforms())
        n += 100;
    while (0)
        only_on_other_platforms();
    do
        n += 2;
    while (0 && only_on_other_platforms());
    for (; 0;)
        only_on_other_platforms();
    return n * 100 + x * 10 + y;
}

int main(void) {
    ASSERT(11378, constant_conditions());
    ASSERT(6, used_inline());
    ASSERT(7, kept_table[0]());
    return test_done();
}
