/* Bit-fields: read by shifts (arithmetic for signed), written by masking the unit. */
struct bf { unsigned a : 3; int b : 5; };
int get_b(struct bf *p) { return p->b; }
void set_a(struct bf *p, unsigned v) { p->a = v; }
