typedef int T;
int f(void) { T int x; return 0; }
