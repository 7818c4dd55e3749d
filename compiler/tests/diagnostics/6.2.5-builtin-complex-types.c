/* gcc's __builtin_complex takes two values of one floating type. */
_Complex double make(double re, float im) {
    return __builtin_complex(re, im);
}
