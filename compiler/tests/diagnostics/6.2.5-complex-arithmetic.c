/* _Complex has no IR representation yet: a clear error, not a crash. */
double f(void) {
    _Complex double z = 1.0;
    return __real__ z;
}
