/* C11 6.7.9: scalar, aggregate, designated, nested, static and string initializers. */
#include "test.h"

struct pt { int x, y; };
struct rect { struct pt a, b; char name[8]; };
union num { int i; char c[4]; };

int garr[5] = {1, 2, 3};
struct pt gpt = {.y = 9};
struct rect grect = {{1, 2}, {3, 4}, "box"};
char gstr[] = "hello";
char *gptr = "world";
/* A flexible array member initialized statically (GNU; repro-06). */
struct flex { int n; int v[]; };
struct flex gflex = {3, {10, 20, 30}};
struct flex gflex_empty = {7};
struct cflex { short n; char s[]; };
struct cflex gcflex = {.s = "abc", .n = 2};
int after_flex = 77;
int *gaddr = &garr[2];
int gmatrix[2][3] = {{1, 2, 3}, {4, 5, 6}};
int gflat[2][2] = {1, 2, 3, 4};
int grange[10] = {[2 ... 4] = 7, [8] = 1};
struct pt gpts[] = {[1].y = 5, [0] = {3, 4}};
union num gnum = {.c = {1, 2}};
long double gld = 2.5;
double gd = 1.0 / 4;
int gsize = sizeof(grect);
static const char *gnames[] = {"a", "bb", "ccc"};
struct { int n; int *p; } gsp = {2, &garr[1]};

int main(void) {
    ASSERT(3, garr[2]);
    ASSERT(0, garr[4]);
    ASSERT(0, gpt.x);
    ASSERT(9, gpt.y);
    ASSERT(4, grect.b.y);
    ASSERT('x', grect.name[2]);
    ASSERT(0, grect.name[7]);
    ASSERT(6, sizeof(gstr));
    ASSERT('l', gstr[3]);
    ASSERT('r', gptr[2]);
    ASSERT(3, *gaddr);
    ASSERT(6, gmatrix[1][2]);
    ASSERT(3, gflat[1][0]);
    ASSERT(0, grange[1]);
    ASSERT(7, grange[3]);
    ASSERT(0, grange[5]);
    ASSERT(1, grange[8]);
    ASSERT(2, sizeof(gpts) / sizeof(gpts[0]));
    ASSERT(4, gpts[0].y);
    ASSERT(5, gpts[1].y);
    ASSERT(0x0201, gnum.i);
    ASSERT(5, (int)(gld * 2));
    ASSERT(25, (int)(gd * 100));
    ASSERT(24, gsize);
    ASSERT(3, (int)sizeof(gnames) / 8);
    ASSERT('c', gnames[2][1]);
    ASSERT(2, *gsp.p);

    int a[4] = {1, 2};
    ASSERT(1, a[0]);
    ASSERT(0, a[3]);
    int b[] = {5, 6, 7};
    ASSERT(12, sizeof(b));
    struct pt p = {.y = 2, .x = 1};
    ASSERT(12, p.x * 10 + p.y);
    struct pt q = p;
    ASSERT(2, q.y);
    struct rect r = {.b = {7, 8}, .name = "hi"};
    ASSERT(0, r.a.x);
    ASSERT(8, r.b.y);
    ASSERT('i', r.name[1]);
    ASSERT(0, r.name[5]);
    char s[10] = "abc";
    ASSERT('c', s[2]);
    ASSERT(0, s[9]);
    char t[] = "xyz";
    ASSERT(4, sizeof(t));
    int m[2][2] = {{1}, {3, 4}};
    ASSERT(0, m[0][1]);
    ASSERT(3, m[1][0]);
    int z[8] = {[6] = 1, [1 ... 2] = 9};
    ASSERT(9, z[2]);
    ASSERT(1, z[6]);
    ASSERT(0, z[7]);
    union num u = {258};
    ASSERT(2, u.c[0]);
    int sc = {42};
    ASSERT(42, sc);
    for (int i = 0; i < 3; i++) {
        int fresh[3] = {i};
        ASSERT(0, fresh[1] + fresh[2]);
        fresh[1] = 5;
    }
    struct pt *cp = &(struct pt){10, 20};
    ASSERT(20, cp->y);
    int *ip = (int[]){7, 8, 9};
    ASSERT(8, ip[1]);
    int big[40] = {[39] = 3};
    ASSERT(0, big[20]);
    ASSERT(3, big[39]);
    int n = 4;
    int dyn[3] = {n, n * 2, n * 3};
    ASSERT(24, dyn[0] + dyn[1] + dyn[2]);
    ASSERT(3, gflex.n);
    ASSERT(10, gflex.v[0]);
    ASSERT(30, gflex.v[2]);
    ASSERT(4, sizeof gflex);
    ASSERT(7, gflex_empty.n);
    ASSERT(2, gcflex.n);
    ASSERT('c', gcflex.s[2]);
    ASSERT(0, gcflex.s[3]);
    static struct flex local_flex = {2, {5, 6}};
    ASSERT(11, local_flex.v[0] + local_flex.v[1]);
    ASSERT(77, after_flex);
    return test_done();
}
