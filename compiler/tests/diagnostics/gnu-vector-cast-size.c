/* A cast between a vector and a scalar needs equal sizes. */
typedef int v4si __attribute__((vector_size(16)));
long low(v4si v) { return (long)v; }
