/* A minimal test harness: one line per check, non-zero exit on failure
 * (after GSL's gsl_test and Redis' TEST). State lives in a test_ctx. */
#ifndef GRAINS_TESTS_CHECK_H
#define GRAINS_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>

typedef struct {
    int checks, failures;
} test_ctx;

#define CHECK(t, cond, ...)                                                    \
    do {                                                                       \
        (t)->checks++;                                                         \
        if (!(cond)) {                                                         \
            (t)->failures++;                                                   \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                        \
            printf(__VA_ARGS__);                                               \
            printf("\n");                                                      \
        }                                                                      \
    } while (0)

/* |got - want| <= tol * |want| (or <= tol when want == 0). */
#define CHECK_REL(t, got, want, tol, what)                                                              \
    do {                                                                                                \
        double g_ = (got), w_ = (want);                                                                 \
        double e_ = w_ != 0 ? fabs(g_ - w_) / fabs(w_) : fabs(g_);                                      \
        CHECK(t, e_ <= (tol), "%s: got %.17g, want %.17g (rel. error %.3g > %.3g)", what, g_, w_, e_, \
              (double)(tol));                                                                           \
    } while (0)

#define CHECK_ABS(t, got, want, tol, what)                                                              \
    do {                                                                                                \
        double g_ = (got), w_ = (want);                                                                 \
        CHECK(t, fabs(g_ - w_) <= (tol), "%s: got %.17g, want %.17g (error %.3g > %.3g)", what, g_, w_, \
              fabs(g_ - w_), (double)(tol));                                                            \
    } while (0)

/* The larger and the smaller of two numbers, a NaN in either giving NaN:
 * fmax and fmin drop a NaN, and a worst case gathered with them would pass
 * with the NaN it should have failed on. */
static inline double nan_max(double a, double b) { return a != a || b != b ? NAN : a > b ? a : b; }
static inline double nan_min(double a, double b) { return a != a || b != b ? NAN : a < b ? a : b; }

static inline int test_report(const test_ctx *t, const char *name)
{
    printf("%s: %d checks, %d failed\n", name, t->checks, t->failures);
    return t->failures != 0;
}

#endif
