#define f(a, b) a + b
int x = f(1);
