struct flags { unsigned on : 1; };
unsigned *f(struct flags *p) { return &p->on; }
