/* Static data: scalars, byte runs with relocations, strings, zero-fill. */
int counter = 3;
double ratio = 0.5;
int table[4] = {1, 2};
int zeros[100];
const char *greeting = "hi";
int *second = &table[1];
struct { char c; int *p; short s; } mixed = {'x', &counter, -2};
static int internal;
int *use_internal(void) { return &internal; }
