struct P { char c; int i; unsigned b:3, d:29; } ps[] = { { 'a', 1, 2, 3 }, [3].i = 4, [4] = { .b = 1 } };
union U { char s[4]; int v; } u = { .s = "ab" };
int a[2][3] = { 1, 2, 3, { 4 } }, *pa = &a[1][2];
char *str = "xyz" + 1;
static int f(int n, ...) {
  static void *t[] = { &&l1, &&l2 };
  __builtin_va_list ap; __builtin_va_start(ap, n);
  double d = __builtin_va_arg(ap, double);
  __builtin_va_end(ap);
  struct P q = { .i = n }, r = q;
  int v[n];
  v[0] = (int)d + r.b + sizeof v;
  goto *t[n & 1];
l1: return v[0] ?: 3;
l2: return ({ int x = n << 2; x > 7 ? x : -x; });
}
int main(void) { return f(1, 2.0) + u.v + ps[3].i; }
