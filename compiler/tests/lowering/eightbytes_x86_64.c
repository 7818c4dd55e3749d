/* x86-64: SysV eightbyte classes on struct arguments and returns. */
struct ds { double d; long l; };
struct ds swap(struct ds s) { return (struct ds){(double)s.l, (long)s.d}; }
