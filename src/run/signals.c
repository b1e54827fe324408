/* SIGINT and SIGTERM during a run: noted, so that the run writes a
 * checkpoint at the end of the step and stops (the command exits 128 + the
 * signal; grains_run_to_end returns GRAINS_ERR_STOPPED). The flag is the
 * one piece of state a signal handler can reach: a static sig_atomic_t is
 * what C allows it to write. */
#include <signal.h>
#include <string.h>

#include "run/run.h"

static volatile sig_atomic_t caught;

static void note(int sig) { caught = sig; }

void run_signals_catch(run_signals *saved)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = note;
    sigemptyset(&sa.sa_mask);
    caught = 0;
    sigaction(SIGINT, &sa, saved ? &saved->interrupt : NULL);
    sigaction(SIGTERM, &sa, saved ? &saved->terminate : NULL);
}

void run_signals_restore(const run_signals *saved)
{
    sigaction(SIGINT, &saved->interrupt, NULL);
    sigaction(SIGTERM, &saved->terminate, NULL);
}

int run_signals_caught(void) { return caught; }

int run_signals_asked(void *ctx)
{
    (void)ctx;
    return run_signals_caught();
}
