/* Byte-swapped (big-endian) scalar storage is not implemented: an error
   rather than fields silently stored in the targets' little-endian order. */
struct be {
    unsigned short x;
} __attribute__((scalar_storage_order("big-endian")));
struct be v;
