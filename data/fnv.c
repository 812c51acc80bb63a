/* SPDX-License-Identifier: Apache-2.0 */
/* fnv.c -- 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime
 * 0x100000001b3): the checksum of `fedref data info`. */
#include "data.h"

uint64_t fdata_fnv1a(uint64_t h, const void *p, size_t len)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}
