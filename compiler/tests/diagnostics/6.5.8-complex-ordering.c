/* Complex numbers have no order (C11 6.5.8p2: relational operands are real). */
int less(_Complex double a, _Complex double b) {
    return a < b;
}
