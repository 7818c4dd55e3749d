#define cat(a, b) a ## b
int x = cat(+, /);
