typedef struct { int a:3; unsigned b:5; } S;
static int (*fp[2])(int, ...);
int main(void) { S s = {.a = 1, .b = 2}; __typeof__(s) t = s; return ({ int q = t.a; q; }); }
