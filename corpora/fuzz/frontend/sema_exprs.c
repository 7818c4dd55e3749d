typedef unsigned long size_t;
enum E { A = -1, B, C = 1 << 20 };
struct S { int x; struct { char c; long l; }; } s, *sp = &s;
_Static_assert(sizeof(struct S) == 24, "layout");
long g(char c, unsigned u, float f, enum E e) {
  long r = c + u * f - e;
  r += sp->l ^ (s.c << 3);
  r = r > 0 ? r : (long)&s - (long)sp;
  switch (e) { case A ... B: r++; break; case C: default: r--; }
  __auto_type z = __builtin_expect(r, 0);
  asm volatile("" : "+r"(z) : "m"(s) : "memory");
  return z + _Generic(r, long: 1, default: 2) + __builtin_offsetof(struct S, l);
}
