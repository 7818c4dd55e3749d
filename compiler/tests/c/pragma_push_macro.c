/* GCC's #pragma push_macro("NAME") / pop_macro("NAME"): save and restore one
 * macro's definition, or that it was undefined. From gcc.c-torture/execute/
 * pushpop_macro.c, where the popped definition was lost. */
#include "test.h"

#define _ 2
#pragma push_macro("_")
#undef _
#define _ 1
#pragma pop_macro("_")
static int torture_value = _;

/* Nested pushes restore innermost first. */
#define V 10
#pragma push_macro("V")
#undef V
#define V 20
#pragma push_macro("V")
#undef V
#define V 30
static int v_inner = V;
#pragma pop_macro("V")
static int v_middle = V;
#pragma pop_macro("V")
static int v_outer = V;

/* A macro undefined when pushed is undefined again after the pop. */
#pragma push_macro("U")
#define U 5
static int u_defined = U;
#pragma pop_macro("U")
#ifdef U
static int u_after_pop = 1;
#else
static int u_after_pop = 0;
#endif

/* Function-like macros, and the _Pragma operator form. */
#define F(x) ((x) + 1)
_Pragma("push_macro(\"F\")")
#undef F
#define F(x) ((x) * 100)
static int f_redefined = F(3);
_Pragma("pop_macro(\"F\")")
static int f_restored = F(3);

/* A pop with nothing pushed is ignored, as in GCC. */
#define K 7
#pragma pop_macro("K")
static int k_kept = K;

int main(void) {
    ASSERT(2, torture_value);
    ASSERT(2, _);
    ASSERT(30, v_inner);
    ASSERT(20, v_middle);
    ASSERT(10, v_outer);
    ASSERT(5, u_defined);
    ASSERT(0, u_after_pop);
    ASSERT(300, f_redefined);
    ASSERT(4, f_restored);
    ASSERT(7, k_kept);
    return test_done();
}
