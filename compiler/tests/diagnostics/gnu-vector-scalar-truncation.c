/* A scalar broadcast to a vector must convert to the element type without
   loss (gcc's scalar_to_vector). */
typedef short v8hi __attribute__((vector_size(16)));
v8hi scale(v8hi v, int k) { return v * k; }
