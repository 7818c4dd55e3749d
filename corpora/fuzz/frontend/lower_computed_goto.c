/* Labels as values: labeladdr, and indirectbr over every address-taken label. */
int run(int i) {
    void *t[] = {&&one, &&two};
    goto *t[i];
one:
    return 1;
two:
    return 2;
}
