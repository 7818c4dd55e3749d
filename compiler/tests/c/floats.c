/* C11 6.2.5, 6.3.1.4-5, 6.5: float, double and long double arithmetic and conversions. */
#include "test.h"

int snprintf(char *, unsigned long, const char *, ...);
int strcmp(const char *, const char *);

static double sq(double x) { return x * x; }
static float fadd(float a, float b) { return a + b; }

double gd = 2.5;
float gf = -1.25f;
double garr[3] = {0.5, 1.5, 2.5};

int main(void) {
    double d = 1.5;
    ASSERT(3, (int)(d * 2));
    ASSERT(1, d > 1.4 && d < 1.6);
    ASSERT(6, (int)sq(2.5));
    ASSERT(5, (int)fadd(2.25f, 2.75f));
    ASSERT(2, (int)gd);
    ASSERT(-1, (int)gf);
    ASSERT(4, (int)(garr[0] + garr[1] + garr[2]));
    float f = 0.1f;
    ASSERT(1, f * 10 == 1.0f);
    ASSERT(0, 0.1 * 3 == 0.3);
    ASSERT(1, 1.0 / 3 * 3 == 1.0);
    ASSERT(1, -0.0 == 0.0);
    double zero = 0.0;
    double inf = 1.0 / zero;
    ASSERT(1, inf > 1e308);
    ASSERT(1, -inf < -1e308);
    double nan = zero / zero;
    ASSERT(0, nan == nan);
    ASSERT(1, nan != nan);
    ASSERT(0, nan < 1);
    ASSERT(0, nan > 1);
    ASSERT(0, nan <= nan);
    ASSERT(1, !(nan >= 0));
    ASSERT(-2, (int)-2.7);
    ASSERT(2, (int)2.999999);
    ASSERT(1, (long)1e18 == 1000000000000000000L);
    ASSERT(1, (double)(1L << 53) + 1 == (double)(1L << 53));
    ASSERT(16777216, (int)(float)16777217);
    unsigned long big = 18446744073709551615ul;
    ASSERT(1, (double)big == 18446744073709551616.0);
    ASSERT(9223372036854774784L, (long)9.2233720368547748e18);
    double x = 10;
    x /= 4;
    ASSERT(25, (int)(x * 10));
    x -= 0.5;
    ASSERT(2, (int)x);
    x++;
    ASSERT(3, (int)x);
    ASSERT(1, x == 3.0);
    long double ld = 1.25L;
    ld = ld * 4;
    ASSERT(5, (int)ld);
    ASSERT(1, ld > 4.5);
    ASSERT(16, sizeof(ld));
    ASSERT(4, sizeof(f));
    ASSERT(8, sizeof(1.0));
    ASSERT(4, sizeof(1.0f));
    char buf[64];
    snprintf(buf, sizeof buf, "%.3f %g %e", 3.14159, 0.5, 1234.5);
    ASSERT(0, strcmp(buf, "3.142 0.5 1.234500e+03"));
    snprintf(buf, sizeof buf, "%5.1f|%-6.2f|", -2.25, 1.005);
    ASSERT(0, strcmp(buf, " -2.2|1.00  |"));
    float fa[4] = {1, 2, 3, 4};
    float fs = 0;
    for (int i = 0; i < 4; i++)
        fs += fa[i] * fa[i];
    ASSERT(30, (int)fs);
    int i = 7;
    ASSERT(1, i / 2.0 == 3.5);
    ASSERT(3, i / 2);
    unsigned u = 4000000000u;
    ASSERT(1, (double)u == 4e9);
    ASSERT(4000000000LL, (unsigned)(double)u);
    return test_done();
}
