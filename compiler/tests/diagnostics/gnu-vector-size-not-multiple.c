/* gcc: "vector size not an integral multiple of component size". */
typedef int v3 __attribute__((vector_size(6)));
