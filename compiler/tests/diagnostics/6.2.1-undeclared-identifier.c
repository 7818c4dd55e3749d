int f(void) {
  return x + 1;
}
