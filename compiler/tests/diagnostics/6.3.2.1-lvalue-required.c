void f(int a) {
  a + 1 = 2;
}
