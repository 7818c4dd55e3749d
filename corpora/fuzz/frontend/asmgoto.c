int f(int x) {
  asm goto ("" : "+r"(x) : : : out);
  return x;
out:
  return -x;
}
