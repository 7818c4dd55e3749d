/* An integer vector and a float vector of the same size do not mix. */
typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
v4si add(v4si a, v4sf b) { return a + b; }
