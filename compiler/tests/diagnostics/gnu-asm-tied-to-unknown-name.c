/* A matching constraint must name an output operand (gcc, "Extended Asm"). */
int main(void) {
    long r;
    __asm__("" : [v] "=r"(r) : "[w]"(1L));
    return (int)r;
}
