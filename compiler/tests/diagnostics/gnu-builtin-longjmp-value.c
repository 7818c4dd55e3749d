/* __builtin_longjmp's second argument must be the constant 1 (gcc). */
void *buf[5];
void jump(void) {
    __builtin_longjmp(buf, 2);
}
