double f(_Complex double z) {
  return z * 2.0;
}
