/* asm: "+r" splits into "=r" and a tied input; asm goto labels are edges. */
int asm_ops(int x) {
    int y;
    asm("add %1, %0" : "+r"(x) : "r"(7));
    asm("mov %1, %0" : "=r"(y) : "m"(x));
    asm goto("jmp %l0" : : : : out);
    return x + y;
out:
    return -1;
}
