/* Runner basics: output on both streams and an exit status. */
#include <stdio.h>
int main(void) {
    printf("out\n");
    fprintf(stderr, "err\n");
    return 3;
}
