/* Code a program never runs needs no definitions at link time, as with
 * gcc -O0 (shared/bugs repro-07): an unreferenced `static inline` function
 * is not emitted, so the undefined function only it calls stays unresolved
 * harmlessly. Referenced ones, and ones reached only through other internal
 * symbols, are kept. (Unreferenced plain `static` functions and data, which
 * gcc -O0 still emits, are checked by tests/phicc_cli.rs.) */
#include "test.h"

extern int not_linked_in(void);

static inline int wrapper(void) { return not_linked_in(); }
static inline int calls_wrapper(void) { return wrapper() + 1; }

static int leaf(void) { return 5; }
static int via_pointer(void) { return 7; }
static int (*const kept_table[])(void) = {via_pointer};
static inline int used_inline(void) { return leaf() + 1; }

int main(void) {
    ASSERT(6, used_inline());
    ASSERT(7, kept_table[0]());
    return test_done();
}
