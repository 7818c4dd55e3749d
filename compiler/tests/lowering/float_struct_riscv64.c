// target: riscv64
/* RISC-V LP64D: small structs flattened into float and integer registers. */
struct fi { double d; int i; };
double take(struct fi s) { return s.d + s.i; }
struct fi give(void) { return (struct fi){1.5, 2}; }
