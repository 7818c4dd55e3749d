int f(void) { return 1; }
int f(void) { return 2; }
