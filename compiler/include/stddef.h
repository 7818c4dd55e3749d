/* phicc <stddef.h> (C11 7.19). Honours glibc's __need_* requests. */
#if !defined(__need_size_t) && !defined(__need_ptrdiff_t) && !defined(__need_wchar_t) && \
    !defined(__need_NULL) && !defined(__need_wint_t)
#define __PHICC_STDDEF_ALL 1
#endif

#if defined(__PHICC_STDDEF_ALL) || defined(__need_size_t)
#if !defined(__PHICC_SIZE_T) && !defined(_SIZE_T)
#define __PHICC_SIZE_T 1
#define _SIZE_T 1
typedef __SIZE_TYPE__ size_t;
#endif
#endif

#if defined(__PHICC_STDDEF_ALL) || defined(__need_ptrdiff_t)
#ifndef __PHICC_PTRDIFF_T
#define __PHICC_PTRDIFF_T 1
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#endif
#endif

#if defined(__PHICC_STDDEF_ALL) || defined(__need_wchar_t)
#if !defined(__PHICC_WCHAR_T) && !defined(_WCHAR_T)
#define __PHICC_WCHAR_T 1
#define _WCHAR_T 1
typedef __WCHAR_TYPE__ wchar_t;
#endif
#endif

#if defined(__need_wint_t)
#if !defined(_WINT_T)
#define _WINT_T 1
typedef __WINT_TYPE__ wint_t;
#endif
#endif

#if defined(__PHICC_STDDEF_ALL) || defined(__need_NULL)
#undef NULL
#define NULL ((void *)0)
#endif

#if defined(__PHICC_STDDEF_ALL)
#ifndef __PHICC_STDDEF_REST
#define __PHICC_STDDEF_REST 1
#define _STDDEF_H 1
typedef struct {
  long long __max_align_ll __attribute__((__aligned__(__alignof__(long long))));
  long double __max_align_ld __attribute__((__aligned__(__alignof__(long double))));
} max_align_t;
#undef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
#endif

#undef __PHICC_STDDEF_ALL
#undef __need_size_t
#undef __need_ptrdiff_t
#undef __need_wchar_t
#undef __need_NULL
#undef __need_wint_t
