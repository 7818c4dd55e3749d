/* va_start / va_arg / va_end on the target's va_list object. */
#include <stdarg.h>
struct pair { int a, b; };
int sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = va_arg(ap, int);
    struct pair p = va_arg(ap, struct pair);
    va_end(ap);
    return s + p.b;
}
