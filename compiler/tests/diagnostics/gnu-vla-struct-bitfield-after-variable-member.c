/* A record with a variably modified member places the members after it at
   run time; a bit-field there is not placed exactly as gcc would, so phicc
   refuses to access it rather than reading the wrong bits. */
int f(int n) {
    struct S { int a[n]; unsigned b : 3; } s;
    s.b = 1;
    return sizeof s;
}
