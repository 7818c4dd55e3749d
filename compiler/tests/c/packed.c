/* Packed records (`#pragma pack`, `__attribute__((packed))`): members at
   unaligned offsets, arrays of packed records, and pointers to packed
   members (gcc warns but every target runs them; Csmith relies on it). */
#include "test.h"

struct inner { long long l; int i; };
#pragma pack(push, 1)
struct outer { char c; struct inner in; short s; int arr[2]; };
#pragma pack(pop)
struct __attribute__((packed)) attr { char c; double d; };

struct outer g_outers[3] = {{1, {100, 7}, 3, {4, 5}}, {2, {200, 8}, 6, {7, 8}}, {3, {300, 9}, 9, {10, 11}}};
long long *g_ptr = &g_outers[1].in.l;

static long long read_through(long long *p) { return *p; }
static void bump(int *p) { *p += 1; }

int main(void) {
    ASSERT(27, sizeof(struct outer));
    ASSERT(1, _Alignof(struct outer));
    ASSERT(9, sizeof(struct attr));
    ASSERT(200, *g_ptr);
    *g_ptr += 5;
    ASSERT(205, g_outers[1].in.l);
    struct inner *ip = &g_outers[2].in;
    ASSERT(300, ip->l);
    ASSERT(9, ip->i);
    ip->i = 90;
    ASSERT(90, g_outers[2].in.i);
    ASSERT(100, read_through(&g_outers[0].in.l));
    int *ap = g_outers[0].arr;
    ASSERT(5, ap[1]);
    bump(&ap[1]);
    ASSERT(6, g_outers[0].arr[1]);
    short *sp = &g_outers[2].s;
    *sp = -4;
    ASSERT(-4, g_outers[2].s);
    struct outer local[2];
    for (int k = 0; k < 2; k++) {
        local[k] = g_outers[k];
        local[k].in.l *= 2;
    }
    ASSERT(410, local[1].in.l);
    struct attr a = {'x', 2.5};
    double *dp = &a.d;
    ASSERT(5, (int)(*dp * 2));
    *dp = 4.0;
    ASSERT(4, (int)a.d);
    return test_done();
}
