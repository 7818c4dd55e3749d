/* phicc <stdnoreturn.h> (C11 7.23). */
#ifndef __PHICC_STDNORETURN_H
#define __PHICC_STDNORETURN_H 1
#define noreturn _Noreturn
#endif
