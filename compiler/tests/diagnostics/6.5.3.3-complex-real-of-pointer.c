/* GNU __real__/__imag__ take an arithmetic operand. */
double re(int *p) {
    return __real__ p;
}
