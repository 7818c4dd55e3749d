/* Struct copies are memcpy; a struct result comes back through sret. */
struct big { long a, b, c; };
struct big make(long x) {
    struct big s = {x, x + 1, x + 2};
    return s;
}
long use(struct big s) { return s.b; }
long caller(void) {
    struct big t = make(1);
    struct big u;
    u = t;
    return use(u);
}
