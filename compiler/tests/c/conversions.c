/* C11 6.3: integer promotions, usual arithmetic conversions, casts, _Bool. */
#include "test.h"

static long widen(int x) { return x; }
static unsigned char narrow(int x) { return x; }
static double to_double(int x) { return x; }
static int takes_short(short s) { return s; }

int main(void) {
    ASSERT(-1, (signed char)255);
    ASSERT(255, (unsigned char)255);
    ASSERT(255, (unsigned char)-1);
    ASSERT(-1, (short)65535);
    ASSERT(65535, (unsigned short)-1);
    ASSERT(1, (signed char)257);
    ASSERT(-2147483648LL, (int)2147483648LL);
    ASSERT(4294967295LL, (unsigned)-1);
    ASSERT(-1, (long)-1);
    ASSERT(4294967295LL, (long)(unsigned)-1);
    ASSERT(-1, (long)(int)-1u);
    ASSERT(1, (_Bool)5);
    ASSERT(0, (_Bool)0);
    ASSERT(1, (_Bool)0.5);
    ASSERT(1, (_Bool)-1);
    _Bool b = 256;
    ASSERT(1, b);
    b = 0;
    b++;
    ASSERT(1, b);
    b++;
    ASSERT(1, b);
    b--;
    ASSERT(0, b);
    b--;
    ASSERT(1, b);
    b += 2;
    ASSERT(1, b);
    ASSERT(3, (int)3.99);
    ASSERT(-3, (int)-3.99);
    ASSERT(2, (int)2.5f);
    ASSERT(1, 1.5 > 1);
    ASSERT(0, 0.1 + 0.2 == 0.3);
    ASSERT(1, (float)0.1 != 0.1);
    ASSERT(3, (long)3.0);
    ASSERT(200, (unsigned char)(char)200);
    ASSERT(-56, (signed char)200);
    ASSERT(1, -1 < (long)1u);
    ASSERT(0, -1 < 1u);
    ASSERT(1, -1L < 1u);
    ASSERT(0, -1L < 1uL);
    unsigned short us = 65535;
    ASSERT(65536, us + 1);
    ASSERT(4, sizeof(us + us));
    signed char sc = -128;
    ASSERT(128, -sc);
    ASSERT(-129, sc - 1);
    unsigned char uc = 255;
    ASSERT(0, (unsigned char)(uc + 1));
    ASSERT(256, uc + 1);
    ASSERT(8, sizeof(1 + 1L));
    ASSERT(8, sizeof(1.0f + 1.0));
    ASSERT(4, sizeof(1.0f + 1));
    ASSERT(-5, widen(-5));
    ASSERT(44, narrow(300));
    ASSERT(7, (int)to_double(7));
    ASSERT(-15536, takes_short(50000));
    long long big = 0x123456789LL;
    ASSERT(0x23456789, (int)big);
    ASSERT(0x89, (unsigned char)big);
    ASSERT(1, (int)(big >> 32));
    unsigned long ul = 18446744073709551615ul;
    ASSERT(-1, (long)ul);
    ASSERT(1, ul > 0);
    double d = ul;
    ASSERT(1, d > 1e19);
    ASSERT(1e9, (double)1000000000);
    ASSERT(3000000000LL, (long long)3e9);
    ASSERT(4000000000LL, (unsigned)4e9);
    float f = 16777217;
    ASSERT(16777216, (int)f);
    int i = 'A';
    char c = i + 1;
    ASSERT('B', c);
    ASSERT(1, (char *)0 == 0);
    int arr[2];
    ASSERT(1, (void *)arr == (void *)&arr[0]);
    long addr = (long)&arr[1] - (long)&arr[0];
    ASSERT(4, addr);
    ASSERT(6, (short)1 + (char)5);
    return test_done();
}
