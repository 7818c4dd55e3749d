// target: riscv64
/* __builtin_frame_address(N) for N > 0 walks the callers' frames (gcc,
   "Return Address"). phicc does it on x86-64 only: a RISC-V frame's saved
   frame pointer moves with the variadic save area, so phicc says so rather
   than returning a wrong address. */
void *frame_of_caller(void) {
    return __builtin_frame_address(1);
}
