void f(void) {
  goto done;
}
