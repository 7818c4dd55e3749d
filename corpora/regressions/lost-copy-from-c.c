/* Regression: injected bug `lost-copy`, found by a C campaign (finding cgen-1-7 of
 *   oracle campaign --generator cgen --emphasis lost-copy --seed 1 --count 20
 *       --targets x86_64 --inject-bug lost-copy)
 * and reduced by `oracle reduce` (cvise + UB checks) from 275 lines to this.
 * The exit copies of the one-trip loop's phis (`last24 = f32_18; f32_18 = 0;`)
 * must not read f32_18 after it is overwritten. gcc and phicc print
 * 40590000..., phicc with the bug 0000...; lowered IR: lost-copy-from-c.ir. */
int printf(const char *, ...);
long long checksum;
union {
  double d;
  long u;
} main_bits;
int main() {
  float f32_18 = 100.0f, last24;
  for (short i25 = 0; i25 < 2; i25 += 2) {
    last24 = f32_18;
    f32_18 = 0;
  }
  main_bits.d = last24;
  checksum = main_bits.u;
  printf("checksum %016llx\n", checksum);
}
