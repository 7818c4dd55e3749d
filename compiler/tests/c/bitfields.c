/* C11 6.7.2.1: bit-fields: widths, signedness, packing, zero-width, in initializers. */
#include "test.h"

struct flags {
    unsigned a : 1;
    unsigned b : 3;
    signed int c : 4;
    unsigned d : 24;
};

struct mixed {
    char tag;
    int x : 7;
    int y : 9;
    unsigned long long big : 40;
    unsigned short s : 5;
};

struct zero {
    unsigned a : 3;
    unsigned : 0;
    unsigned b : 3;
};

struct __attribute__((packed)) packed_bits {
    unsigned char c;
    unsigned v : 20;
    unsigned char after;
};

struct with_bool {
    _Bool on : 1;
    unsigned rest : 7;
};

#pragma pack(push, 1)
/* A trailing bit-field whose natural unit would reach past the record. */
struct tail {
    signed f0 : 13;
    unsigned short f1;
    unsigned f2 : 3;
    signed f3 : 7;
    signed f4 : 11;
    unsigned f5 : 15;
};
/* Records smaller than the unit their bit-fields need. */
struct three {
    unsigned a : 4;
    unsigned b : 20;
};
struct six {
    unsigned char c;
    unsigned long long v : 37;
    unsigned w : 3;
};
#pragma pack(pop)

struct three gthree[2] = {{5, 0xabcde}, {15, 1}};
struct six gsix = {9, 0x1234567890ULL, 5};

struct tail gtail[3] = {{95, 0x4112, 4, -11, -193, 10579}, {1, 2, 3, 4, 5, 6}, {-1, -2, -3, -4, -5, -6}};

struct flags gflags = {1, 5, -3, 123456};
static struct mixed gmixed = {'m', -10, 200, 0xabcdef1234ULL, 17};

static int set_and_get(struct flags *f, int v) {
    f->c = v;
    return f->c;
}

int main(void) {
    struct flags f = {0};
    ASSERT(4, sizeof(struct flags));
    f.a = 1;
    ASSERT(1, f.a);
    f.a = 2;
    ASSERT(0, f.a);
    f.b = 7;
    ASSERT(7, f.b);
    f.b = 9;
    ASSERT(1, f.b);
    f.c = 7;
    ASSERT(7, f.c);
    f.c = 8;
    ASSERT(-8, f.c);
    f.c = -1;
    ASSERT(-1, f.c);
    f.d = 0xffffff;
    ASSERT(0xffffff, f.d);
    ASSERT(-1, f.c);
    ASSERT(1, f.b);
    f.d++;
    ASSERT(0, f.d);
    f.b += 3;
    ASSERT(4, f.b);
    ASSERT(4, f.b++);
    ASSERT(5, f.b);
    ASSERT(6, ++f.b);
    ASSERT(3, (f.c = 3));
    ASSERT(-5, (f.c = 11));
    ASSERT(2, set_and_get(&f, 2));
    ASSERT(1, gflags.a);
    ASSERT(5, gflags.b);
    ASSERT(-3, gflags.c);
    ASSERT(123456, gflags.d);
    ASSERT('m', gmixed.tag);
    ASSERT(-10, gmixed.x);
    ASSERT(200, gmixed.y);
    ASSERT(0xabcdef1234LL, gmixed.big);
    ASSERT(17, gmixed.s);
    struct mixed m = {'q', 63, -256, 1, 31};
    ASSERT(63, m.x);
    ASSERT(-256, m.y);
    ASSERT(1, m.big);
    m.big = (1ULL << 40) - 1;
    ASSERT(1099511627775LL, m.big);
    ASSERT(63, m.x);
    ASSERT(31, m.s);
    ASSERT(8, sizeof(struct zero));
    struct zero z = {5, 6};
    ASSERT(5, z.a);
    ASSERT(6, z.b);
    ASSERT(5, sizeof(struct packed_bits));
    struct packed_bits pb = {1, 0xfffff, 2};
    ASSERT(1, pb.c);
    ASSERT(0xfffff, pb.v);
    ASSERT(2, pb.after);
    pb.v = 0x12345;
    ASSERT(0x12345, pb.v);
    ASSERT(2, pb.after);
    ASSERT(1, pb.c);
    struct with_bool wb = {0};
    wb.on = 5;
    ASSERT(1, wb.on);
    wb.rest = 127;
    ASSERT(1, wb.on);
    ASSERT(127, wb.rest);
    ASSERT(9, sizeof(struct tail));
    ASSERT(10579, gtail[0].f5);
    ASSERT(-193, gtail[0].f4);
    ASSERT(6, gtail[1].f5);
    ASSERT(32762, gtail[2].f5);
    ASSERT(-1, gtail[2].f0);
    struct tail tl = gtail[0];
    tl.f5 = 32767;
    tl.f4 = -1024;
    ASSERT(32767, tl.f5);
    ASSERT(-1024, tl.f4);
    ASSERT(-11, tl.f3);
    gtail[2].f5 += 7;
    ASSERT(32769 % 32768, gtail[2].f5);
    ASSERT(-5, gtail[2].f4);
    ASSERT(95, gtail[0].f0);
    ASSERT(3, sizeof(struct three));
    ASSERT(0xabcde, gthree[0].b);
    ASSERT(15, gthree[1].a);
    gthree[0].b = 0xfffff;
    ASSERT(0xfffff, gthree[0].b);
    ASSERT(5, gthree[0].a);
    ASSERT(15, gthree[1].a);
    ASSERT(1, gthree[1].b);
    ASSERT(6, sizeof(struct six));
    ASSERT(0x1234567890LL, gsix.v);
    ASSERT(5, gsix.w);
    gsix.v += 1;
    ASSERT(0x1234567891LL, gsix.v);
    ASSERT(9, gsix.c);
    struct three lt = {1, 2};
    lt.a += 3;
    ASSERT(4, lt.a);
    ASSERT(2, lt.b);
    unsigned sum = 0;
    for (f.b = 0; f.b < 7; f.b++)
        sum += f.b;
    ASSERT(21, sum);
    return test_done();
}
