#if 2 / (1 - 1)
#endif
