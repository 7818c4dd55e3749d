struct opaque;
unsigned long f(void) { return sizeof(struct opaque); }
