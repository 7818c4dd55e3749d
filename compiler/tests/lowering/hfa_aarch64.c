// target: aarch64
/* AArch64: homogeneous floating-point aggregates carry hfa metadata. */
struct vec3 { float x, y, z; };
float len2(struct vec3 v) { return v.x * v.x + v.y * v.y + v.z * v.z; }
struct vec3 scale(struct vec3 v, float k) { return (struct vec3){v.x * k, v.y * k, v.z * k}; }
