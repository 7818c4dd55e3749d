struct point { int x, y; };
int f(struct point p) { return p.z; }
