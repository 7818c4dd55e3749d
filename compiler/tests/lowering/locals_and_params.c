/* Every local an alloca, parameters by paramref + store (the first allocas). */
int add_twice(int a, long b) {
    int c = a + (int)b;
    short s = c;
    return s * 2;
}
