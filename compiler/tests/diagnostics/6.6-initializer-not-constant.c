int f(void);
int value = f();
