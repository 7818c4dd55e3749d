/* A _Complex parameter: an error at the function. */
double f(_Complex double x) {
    return 1;
}
