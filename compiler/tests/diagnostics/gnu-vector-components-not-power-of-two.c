/* gcc: "number of vector components 3 not a power of two". */
typedef float v3 __attribute__((__vector_size__(12)));
