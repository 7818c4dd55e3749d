#if defined(__x86_64__) && __STDC_VERSION__ >= 201112L
# define OK 1
#elif defined __aarch64__
# define OK 2
#else
# define OK 3
#endif
int ok = OK;
