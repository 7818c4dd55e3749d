/* phicc <stdarg.h> (C11 7.16). With __need___va_list only __gnuc_va_list. */
#ifndef __GNUC_VA_LIST
#define __GNUC_VA_LIST 1
typedef __builtin_va_list __gnuc_va_list;
#endif

#ifdef __need___va_list
#undef __need___va_list
#else
#ifndef __PHICC_STDARG_H
#define __PHICC_STDARG_H 1
#define _STDARG_H 1
#if !defined(_VA_LIST_DEFINED) && !defined(_VA_LIST)
#define _VA_LIST_DEFINED 1
#define _VA_LIST 1
typedef __gnuc_va_list va_list;
#endif
#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_end(ap) __builtin_va_end(ap)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_copy(dest, src) __builtin_va_copy(dest, src)
#define __va_copy(dest, src) __builtin_va_copy(dest, src)
#endif
#endif
