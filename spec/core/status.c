/* SPDX-License-Identifier: Apache-2.0 */
/* status.c -- status codes shared by ref and fast (fedref_common.h). */
#include "fedref_common.h"

const char *fr_strerror(int status)
{
    switch (status) {
    case FR_OK:         return "success";
    case FR_EDOM:       return "parameter outside the domain of the method";
    case FR_ENONFINITE: return "NaN or infinity in a parameter or input";
    case FR_ESIZE:      return "invalid or inconsistent dimension";
    case FR_ENOMEM:     return "out of memory";
    case FR_EPREC:      return "precision out of range";
    case FR_ENULL:      return "required pointer is NULL";
    case FR_EINTERNAL:  return "internal consistency check failed";
    default:            return "unknown status";
    }
}

int fr_is_domain_error(int status)
{
    return status == FR_EDOM || status == FR_ENONFINITE
        || status == FR_ESIZE || status == FR_ENULL;
}
