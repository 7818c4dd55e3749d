struct s { int v; };
void f(struct s x) { int i; i = x; }
