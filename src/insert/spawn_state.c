/* The insertion regions' progress as a checkpoint keeps it, and a region
 * opened or closed by a stage or a program (insert/insert.h). The core
 * calls these and reads no member of the progress (sim/state.c,
 * sim/changes.c). */
#include "insert/insert.h"

void spawn_states_write(const spawn_state *spawn, bytes_out *o)
{
    for (int k = 0; k < GRAINS_MAX_SPAWNS; k++) {
        const spawn_state *r = &spawn[k];
        bytes_put_real(o, r->R_next);
        bytes_put_i64(o, r->added);
        bytes_put_i64(o, r->idle_steps);
        bytes_put_u32(o, (uint32_t)r->stop);
        bytes_put_i64(o, r->stop_step);
    }
}

void spawn_states_read(spawn_state *spawn, bytes_in *in)
{
    for (int k = 0; k < GRAINS_MAX_SPAWNS; k++) {
        spawn_state *r = &spawn[k];
        r->R_next = bytes_get_real(in);
        r->added = (long)bytes_get_i64(in);
        r->idle_steps = (long)bytes_get_i64(in);
        r->stop = (int)(bytes_get_u32(in) & 0xFF);
        r->stop_step = (long)bytes_get_i64(in);
    }
}

int spawn_states_valid(const spawn_state *spawn, int n, real R_min, real R_max)
{
    for (int k = 0; k < n; k++) {
        const spawn_state *r = &spawn[k];
        if (!(r->R_next >= R_min && r->R_next <= R_max) || r->added < 0 || r->idle_steps < 0 ||
            r->stop < GRAINS_SPAWN_ACTIVE || r->stop > GRAINS_SPAWN_CLOSED || r->stop == GRAINS_SPAWN_N_MAX ||
            r->stop_step < 0)
            return 0;
    }
    return 1;
}

void spawn_state_open(spawn_state *st, int open, long step)
{
    if (st->stop == GRAINS_SPAWN_COUNT_REACHED)
        return;
    st->stop = open ? GRAINS_SPAWN_ACTIVE : GRAINS_SPAWN_CLOSED;
    st->stop_step = open ? 0 : step;
    st->idle_steps = 0;
}
