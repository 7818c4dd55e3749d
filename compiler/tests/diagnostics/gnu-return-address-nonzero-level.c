/* __builtin_return_address(N) for N > 0 walks the callers' frames (gcc,
   "Return Address"); phicc does not, and says so rather than returning a
   wrong address (torture 20010122-1). */
void *caller_of_caller(void) {
    return __builtin_return_address(1);
}
