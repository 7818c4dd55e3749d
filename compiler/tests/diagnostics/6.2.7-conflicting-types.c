int f(int);
long f(int a) { return a; }
