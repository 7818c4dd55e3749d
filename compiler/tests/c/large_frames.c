/* Frames beyond the reach of short load/store displacements (AArch64: 4 KiB
   for bytes, 32 KiB for doublewords; RISC-V: 2 KiB): locals laid out after a
   70 000-byte array, a 2 MiB frame whose stack-passed arguments lie more
   than 2 MiB above the frame pointer, and a deep loop over such frames. */
#include "test.h"

static long big_frame(int n) {
    unsigned char buf[70000];
    long sum = 0;
    for (int i = 0; i < 70000; i++)
        buf[i] = (unsigned char)(i + n);
    for (int i = 0; i < 70000; i += 1000)
        sum += buf[i];
    int after = n * 2;
    return sum + after;
}

static long huge_frame(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j) {
    volatile char buf[1 << 21];
    buf[0] = 1;
    buf[(1 << 21) - 1] = 2;
    return buf[0] + buf[(1 << 21) - 1] + a + b + c + d + e + f + g + h + i * 100 + j * 1000;
}

static double many_locals(double x) {
    double a[600];
    for (int i = 0; i < 600; i++)
        a[i] = x * i;
    double last = a[599], first = a[1];
    long k = 5000;
    return last + first + k;
}

int main(void) {
    ASSERT(9072, big_frame(3));
    ASSERT(10939, huge_frame(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
    long s = 0;
    for (int r = 0; r < 4; r++)
        s += big_frame(r);
    ASSERT(35856, s);
    ASSERT(5300, (long)many_locals(0.5));
    return test_done();
}
