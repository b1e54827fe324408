/* A one-line progress display, redrawn at most four times a second. */
#include "cli/cli.h"
#include "util/clock.h"

void progress_init(progress *pg, int enabled)
{
    pg->enabled = enabled;
    pg->start = pg->last = wall_seconds();
}

void progress_update(progress *pg, double t, double t_end, size_t n)
{
    if (!pg->enabled)
        return;
    double now = wall_seconds();
    if (now - pg->last < 0.25)
        return;
    pg->last = now;
    double done = t_end > 0 ? t / t_end : 1;
    double eta = done > 0 ? (now - pg->start) * (1 - done) / done : 0;
    fprintf(stderr, "\r  t = %.4g of %.4g s   N = %zu   %3.0f%%   ETA %02d:%02d   ", t, t_end, n, 100 * done,
            (int)(eta / 60), (int)eta % 60);
    fflush(stderr);
}

void progress_done(progress *pg)
{
    if (pg->enabled)
        fprintf(stderr, "\r%70s\r", "");
}
