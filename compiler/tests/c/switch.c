/* C11 6.8.4.2: switch, case, default, fall-through, GNU case ranges. */
#include "test.h"

static int classify(int x) {
    switch (x) {
    case 0:
        return 100;
    case 1:
    case 2:
        return 200;
    case 3 ... 9:
        return 300;
    case 100 ... 100000:
        return 400;
    case -5:
        return -1;
    default:
        return 0;
    }
}

static int fall(int x) {
    int r = 0;
    switch (x) {
    case 1:
        r += 1;
    case 2:
        r += 10;
    case 3:
        r += 100;
        break;
    case 4:
        r += 1000;
    }
    return r;
}

static int by_char(char c) {
    switch (c) {
    case 'a': return 1;
    case 'z': return 26;
    }
    return -1;
}

static int by_long(long v) {
    switch (v) {
    case 1L << 40: return 1;
    case -(1L << 40): return 2;
    case 0xffffffffL: return 3;
    default: return 4;
    }
}

static unsigned by_unsigned(unsigned v) {
    switch (v) {
    case 0xffffffffu: return 1;
    case 0x80000000u: return 2;
    default: return 3;
    }
}

static int duff(int n) {
    int count = 0;
    int k = (n + 3) / 4;
    switch (n % 4) {
    case 0: do { count++;
    case 3: count++;
    case 2: count++;
    case 1: count++;
            } while (--k > 0);
    }
    return count;
}

int main(void) {
    ASSERT(100, classify(0));
    ASSERT(200, classify(1));
    ASSERT(200, classify(2));
    ASSERT(300, classify(3));
    ASSERT(300, classify(9));
    ASSERT(0, classify(10));
    ASSERT(400, classify(100));
    ASSERT(400, classify(54321));
    ASSERT(400, classify(100000));
    ASSERT(0, classify(100001));
    ASSERT(-1, classify(-5));
    ASSERT(0, classify(-6));
    ASSERT(111, fall(1));
    ASSERT(110, fall(2));
    ASSERT(100, fall(3));
    ASSERT(1000, fall(4));
    ASSERT(0, fall(5));
    ASSERT(1, by_char('a'));
    ASSERT(26, by_char('z'));
    ASSERT(-1, by_char('q'));
    ASSERT(1, by_long(1L << 40));
    ASSERT(2, by_long(-(1L << 40)));
    ASSERT(3, by_long(0xffffffffL));
    ASSERT(4, by_long(-1));
    ASSERT(1, by_unsigned(-1));
    ASSERT(2, by_unsigned(0x80000000u));
    ASSERT(3, by_unsigned(7));
    ASSERT(7, duff(7));
    ASSERT(8, duff(8));
    ASSERT(1, duff(1));
    int s = 0;
    for (int i = 0; i < 6; i++) {
        switch (i) {
        case 1:
            continue;
        case 4:
            s += 100;
            break;
        default:
            s += i;
        }
        s += 1000;
    }
    ASSERT(5110, s);
    int x = 3, y = 0;
    switch (x) {
        y = 99;
    case 3:
        y += 1;
    }
    ASSERT(1, y);
    switch (x) {
    default:
        y = 5;
        break;
    case 1:
        y = 6;
    }
    ASSERT(5, y);
    switch (x)
    case 3:
        y = 7;
    ASSERT(7, y);
    switch (x) {}
    ASSERT(7, y);
    switch (x) {
    case 3: {
        int z = 4;
        y = z * 2;
        break;
    }
    }
    ASSERT(8, y);
    return test_done();
}
