/* GNU C: statement expressions, typeof, `?:` with omitted operand, builtins folded by sema. */
#include "test.h"

#define MAX(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })
#define SWAP(x, y) do { typeof(x) _t = (x); (x) = (y); (y) = _t; } while (0)

struct s { char c; int i; long l; };
static int calls;
static int next(void) { return ++calls; }

int main(void) {
    ASSERT(3, ({ 1; 2; 3; }));
    ASSERT(6, ({ int x = 2; x * 3; }));
    int i = 10;
    ASSERT(11, ({ i++; i; }));
    ASSERT(11, i);
    ASSERT(7, MAX(3, 7));
    ASSERT(9, MAX(9, -1));
    calls = 0;
    ASSERT(2, MAX(next(), next()));
    ASSERT(2, calls);
    int a = 1, b = 2;
    SWAP(a, b);
    ASSERT(21, a * 10 + b);
    typeof(a) c = 5;
    ASSERT(4, sizeof(c));
    typeof(long) d = 1;
    ASSERT(8, sizeof(d));
    typeof(int *) p = &c;
    ASSERT(5, *p);
    typeof("abc") str = "xyz";
    ASSERT(4, sizeof(str));
    ASSERT(5, c ?: 9);
    int zero = 0;
    ASSERT(9, zero ?: 9);
    calls = 0;
    ASSERT(1, next() ?: 100);
    ASSERT(1, calls);
    ASSERT(1, __builtin_types_compatible_p(int, int));
    ASSERT(0, __builtin_types_compatible_p(int, long));
    ASSERT(1, __builtin_types_compatible_p(typeof(c), int));
    ASSERT(8, __builtin_offsetof(struct s, l));
    ASSERT(4, __builtin_offsetof(struct s, i));
    ASSERT(1, __builtin_constant_p(42));
    ASSERT(5, __builtin_expect(5, 1));
    ASSERT(1, __builtin_expect(i > 3, 1));
    int r = ({
        int acc = 0;
        for (int k = 0; k < 4; k++)
            acc += k;
        acc;
    });
    ASSERT(6, r);
    ASSERT(3, ({ struct s v = {1, 2, 3}; v.l; }));
    ASSERT(4, __extension__ 4);
    int nested = ({ int t = ({ 3; }); t + ({ 4; }); });
    ASSERT(7, nested);
    int loops = 0;
    while (({ loops++; loops < 5; }))
        ;
    ASSERT(5, loops);
    return test_done();
}
