/* A _Complex local has no IR representation yet: an error at the object. */
void f(void) {
    _Complex double z;
    (void)&z;
}
