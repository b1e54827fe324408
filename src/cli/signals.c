/* SIGINT and SIGTERM during a run: noted, so that the run writes a
 * checkpoint at the end of the step and exits 128 + the signal. The flag is
 * the one piece of state a signal handler can reach: a static
 * sig_atomic_t is what C allows it to write. */
#include <signal.h>
#include <string.h>

#include "cli/run.h"

static volatile sig_atomic_t caught;

static void note(int sig) { caught = sig; }

void signals_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = note;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int signals_caught(void) { return caught; }

int signals_asked(void *ctx)
{
    (void)ctx;
    return signals_caught();
}
