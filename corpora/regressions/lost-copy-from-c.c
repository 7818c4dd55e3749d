/* Regression: injected bug `lost-copy`, found at C level by
 *   oracle campaign --generator cgen --emphasis lost-copy --seed 1 --count 20 \
 *       --targets x86_64 --inject-bug lost-copy   (finding cgen-1-7, program 7)
 * reduced by `oracle reduce` (cvise, UB checks) from 275 lines, then tidied
 * (printf declared by <stdio.h>, the value printed as a double).
 * The loop runs once and ends with the swap-like pair `last = f; f = 0;`:
 * after mem2reg and copy propagation the exit's phi copies read `f` after it
 * was overwritten unless phi elimination orders them (the lost-copy problem).
 * gcc -O0 and phicc print "last = 100"; phicc with the bug prints "last = 0".
 * Lowered IR: lost-copy-from-c.ir. Show it:
 *   oracle diff corpora/regressions/lost-copy-from-c.c --inject-bug=lost-copy \
 *       --compiler=<phicc built with --features phicc/inject-bugs> */
#include <stdio.h>

int main(void) {
    float f = 100.0f;
    float last = 1.0f;
    for (short i = 0; i < 2; i += 2) {
        last = f;
        f = 0;
    }
    printf("last = %g\n", (double)last);
    return 0;
}
