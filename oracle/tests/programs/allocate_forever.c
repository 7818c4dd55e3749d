/* Runner containment: allocates and touches memory without bound; the
   address-space limit makes malloc fail, and the program reports it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    for (long mib = 0;; mib++) {
        char *p = malloc(1 << 20);
        if (!p) {
            printf("malloc failed after %ld MiB\n", mib);
            return 42;
        }
        memset(p, 1, 1 << 20);
    }
}
