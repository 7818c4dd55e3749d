/* C11 6.8.6.1 goto and labels; GNU labels as values (`&&label`, `goto *p`). */
#include "test.h"

static int loop_with_goto(int n) {
    int i = 0, s = 0;
top:
    if (i >= n)
        goto done;
    s += i;
    i++;
    goto top;
done:
    return s;
}

static int forward(int x) {
    if (x)
        goto skip;
    x = 10;
skip:
    return x + 1;
}

static int interpreter(const char *prog) {
    static void *ops[] = {&&op_inc, &&op_dbl, &&op_end};
    int acc = 0;
    const char *pc = prog;
    goto *ops[*pc - '0'];
op_inc:
    acc++;
    goto *ops[*++pc - '0'];
op_dbl:
    acc *= 2;
    goto *ops[*++pc - '0'];
op_end:
    return acc;
}

static int dispatch(int which) {
    void *targets[3];
    targets[0] = &&first;
    targets[1] = &&second;
    targets[2] = &&third;
    int r = 0;
    goto *targets[which];
first:
    r += 1;
second:
    r += 10;
third:
    r += 100;
    return r;
}

static int label_diff(int k) {
    static const int offsets[] = {&&lbl_a - &&lbl_a, &&lbl_b - &&lbl_a, &&lbl_c - &&lbl_a};
    goto *(&&lbl_a + offsets[k]);
lbl_a:
    return 1;
lbl_b:
    return 2;
lbl_c:
    return 3;
}

static int nested_jump(void) {
    int s = 0;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            if (i == 1 && j == 1)
                goto out;
            s += 1;
        }
    }
out:
    return s;
}

int main(void) {
    ASSERT(10, loop_with_goto(5));
    ASSERT(0, loop_with_goto(0));
    ASSERT(6, forward(5));
    ASSERT(11, forward(0));
    ASSERT(1, interpreter("02"));
    ASSERT(3, interpreter("0102"));
    ASSERT(5, interpreter("00102"));
    ASSERT(0, interpreter("2"));
    ASSERT(111, dispatch(0));
    ASSERT(110, dispatch(1));
    ASSERT(100, dispatch(2));
    ASSERT(1, label_diff(0));
    ASSERT(2, label_diff(1));
    ASSERT(3, label_diff(2));
    ASSERT(4, nested_jump());
    void *p = &&here;
    int count = 0;
here:
    count++;
    if (count < 3)
        goto *p;
    ASSERT(3, count);
    return test_done();
}
