/* C11 6.7.2.1, 6.5.2.3: structs and unions: layout, members, copies, nesting,
   anonymous members, flexible arrays, passing and returning by value. */
#include "test.h"

struct pair { int a; int b; };
struct mix { char c; double d; short s; };
struct nested { struct pair p; struct pair q[2]; };
union u { int i; unsigned char b[4]; long l; };
struct anon { int tag; union { int i; float f; }; struct { short x, y; }; };
struct flex { int n; int data[]; };
struct big { long v[6]; };
struct small { char a, b; };
struct fd { float f; double d; };
struct node { int val; struct node *next; };
#pragma pack(push, 1)
struct packed1 { char c; int i; short s; };
#pragma pack(pop)
struct aligned { char c; int x __attribute__((aligned(16))); };

static struct pair make_pair(int a, int b) {
    struct pair p = {a, b};
    return p;
}
static int sum_pair(struct pair p) { return p.a + p.b; }
static struct big make_big(long base) {
    struct big b;
    for (int i = 0; i < 6; i++)
        b.v[i] = base + i;
    return b;
}
static long sum_big(struct big b) {
    long s = 0;
    for (int i = 0; i < 6; i++)
        s += b.v[i];
    b.v[0] = 1000;
    return s;
}
static struct small swap_small(struct small s) {
    struct small r = {s.b, s.a};
    return r;
}
static double fd_sum(struct fd x) { return x.f + x.d; }
static struct fd fd_make(float f, double d) { return (struct fd){f, d}; }
static struct mix mix_id(struct mix m) { return m; }

int main(void) {
    ASSERT(8, sizeof(struct pair));
    ASSERT(24, sizeof(struct mix));
    ASSERT(24, sizeof(struct nested));
    ASSERT(8, sizeof(union u));
    ASSERT(12, sizeof(struct anon));
    ASSERT(4, sizeof(struct flex));
    ASSERT(7, sizeof(struct packed1));
    ASSERT(32, sizeof(struct aligned));
    ASSERT(16, _Alignof(struct aligned));
    struct pair p = {3, 4};
    ASSERT(7, p.a + p.b);
    struct pair q = p;
    q.a = 10;
    ASSERT(3, p.a);
    ASSERT(10, q.a);
    p = q;
    ASSERT(10, p.a);
    struct pair *pp = &p;
    pp->b = 20;
    ASSERT(20, p.b);
    ASSERT(30, pp->a + (*pp).b);
    struct nested n = {{1, 2}, {{3, 4}, {5, 6}}};
    ASSERT(6, n.q[1].b);
    n.q[0] = n.p;
    ASSERT(2, n.q[0].b);
    union u un;
    un.l = 0;
    un.i = 0x01020304;
    ASSERT(4, un.b[0]);
    ASSERT(1, un.b[3]);
    un.b[1] = 0xff;
    ASSERT(0x0102ff04, un.i);
    struct anon an;
    an.tag = 1;
    an.i = 5;
    an.x = 7;
    an.y = 8;
    ASSERT(5, an.i);
    ASSERT(15, an.x + an.y);
    struct mix m = {'a', 1.5, 9};
    ASSERT(9, m.s);
    ASSERT(3, (int)(m.d * 2));
    struct mix m2 = mix_id(m);
    ASSERT('a', m2.c);
    ASSERT(9, m2.s);
    ASSERT(11, sum_pair(make_pair(5, 6)));
    ASSERT(7, make_pair(3, 4).b + 3);
    struct big b = make_big(10);
    ASSERT(75, sum_big(b));
    ASSERT(10, b.v[0]);
    ASSERT(15, make_big(10).v[5]);
    struct small s = {'x', 'y'};
    struct small t = swap_small(s);
    ASSERT('y', t.a);
    ASSERT('x', t.b);
    ASSERT(4, (int)fd_sum(fd_make(1.5f, 2.5)));
    struct node n3 = {3, 0}, n2 = {2, &n3}, n1 = {1, &n2};
    int total = 0;
    for (struct node *it = &n1; it; it = it->next)
        total += it->val;
    ASSERT(6, total);
    struct packed1 pk = {1, 0x11223344, 0x5566};
    ASSERT(0x11223344, pk.i);
    ASSERT(0x5566, pk.s);
    pk.i += 1;
    ASSERT(0x11223345, pk.i);
    struct pair arr[3] = {{1, 2}, {3, 4}, {5, 6}};
    struct pair tmp = arr[0];
    arr[0] = arr[2];
    arr[2] = tmp;
    ASSERT(5, arr[0].a);
    ASSERT(2, arr[2].b);
    int c = 0;
    struct pair r = c ? arr[0] : arr[1];
    ASSERT(3, r.a);
    struct pair chain;
    struct pair chain2 = chain = p;
    ASSERT(20, chain2.b);
    return test_done();
}
