void f(int x) {
  if (x)
    break;
}
