/* pi, as every contact law's formulas take it (HM_: named where the
 * Hertz-Mindlin kernel first needed it). */
#ifndef GRAINS_MATH_PI_H
#define GRAINS_MATH_PI_H

#define HM_PI 3.14159265358979323846

#endif
