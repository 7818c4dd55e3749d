/* phicc <stdbool.h> (C11 7.18). */
#ifndef __PHICC_STDBOOL_H
#define __PHICC_STDBOOL_H 1
#define bool _Bool
#define true 1
#define false 0
#define __bool_true_false_are_defined 1
#endif
