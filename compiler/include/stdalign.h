/* phicc <stdalign.h> (C11 7.15). */
#ifndef __PHICC_STDALIGN_H
#define __PHICC_STDALIGN_H 1
#define alignas _Alignas
#define alignof _Alignof
#define __alignas_is_defined 1
#define __alignof_is_defined 1
#endif
