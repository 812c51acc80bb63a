/* SPDX-License-Identifier: Apache-2.0 */
/* lk_fixtures.h -- small problems of module proxal for the l_k tests (QP
 * with dyadic data, FAIR with an exact kink t = 0), shared by
 * tests/proxal/test_lk.c and test_status_lk.c. */
#ifndef TESTS_PROXAL_LK_FIXTURES_H
#define TESTS_PROXAL_LK_FIXTURES_H
#include "fedref.h"
#include "fedfast.h"

/* The hand QP (n = 1, d = 2, mt = 1): A_1 = diag(2, 4), b_1 = (1, -1),
 * C_0 = (1, 1), e_0 = -1, C_1 = (1, -1), e_1 = 1/2. */
static const double LKH_A[4] = {2, 0, 0, 4}, LKH_b[2] = {1, -1}, LKH_C[4] = {1, 1, 1, -1},
                    LKH_e[2] = {-1, 0.5};
static inline fr_proxal_problem lk_hand_qp(void)
{
    fr_proxal_problem P = {0};
    P.kind = FR_PROXAL_QP;
    P.n = 1;
    P.d = 2;
    P.mt = 1;
    P.A = LKH_A;
    P.b = LKH_b;
    P.C = LKH_C;
    P.e = LKH_e;
    P.h = FR_PROXAL_H_ZERO;
    return P;
}

/* FAIR, n = 1, d = 1: owners 0 and 1 each hold x = 1 (group 0) and x = -1
 * (group 1), labels 0: phi = ln(1 + e^w) and ln(1 + e^-w), so D_i(0) = 0
 * exactly and D_i'(0) = 1; r = (0, 0): both rows of c_i vanish at w = 0 and
 * with mu = 0 every t_j = 0 exactly (the kink of [.]_+). */
static const size_t LKF_cnt[2] = {2, 2};
static const double LKF_X[4] = {1, -1, 1, -1}, LKF_r[2] = {0, 0};
static const unsigned char LKF_y[4] = {0, 0, 0, 0}, LKF_g[4] = {0, 1, 0, 1};
static inline fr_proxal_problem lk_kink_fair(void)
{
    fr_proxal_problem P = {0};
    P.kind = FR_PROXAL_FAIR;
    P.n = 1;
    P.d = 1;
    P.cnt = LKF_cnt;
    P.X = LKF_X;
    P.y = LKF_y;
    P.grp = LKF_g;
    P.r = LKF_r;
    P.h = FR_PROXAL_H_ZERO;
    return P;
}
#endif
