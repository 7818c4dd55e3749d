/* A volatile local's alloca is volatile (mem2reg leaves it in memory). */
int spin(void) {
    volatile int v = 1;
    int w = v + 1;
    return w;
}
