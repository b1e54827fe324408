/* Writes the checkpoint corpus's seeds into a folder: seed.grains (a
 * checkpoint of fuzz_checkpoint_scene after 30 steps, a stray in it) and seed.state (its
 * state stream alone, for the harness's second reading) and seed.share (its
 * block count, particles and contact histories, for the third). Made at test time:
 * a committed checkpoint would name an old program version. */
#include <stdio.h>
#include <stdlib.h>

#include "grains/checkpoint.h"
#include "sim/sim_internal.h"
#include "sim/state.h"

grains_sim *fuzz_checkpoint_scene(void);
int fuzz_checkpoint_share(const uint8_t *data, size_t size);

/* Whether the file at path reads whole as a share's pieces, its CRC
 * matching once the parts passed over are spliced back. */
static int share_reads(const char *path)
{
    FILE *f = fopen(path, "rb");
    static uint8_t data[1 << 20];
    size_t size = f ? fread(data, 1, sizeof data, f) : 0;
    if (f)
        fclose(f);
    return size > 0 && size < sizeof data && fuzz_checkpoint_share(data, size);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    char path[4096];
    grains_error err;
    grains_sim *sim = fuzz_checkpoint_scene();
    if (grains_sim_advance(sim, 30, &err) != GRAINS_OK)
        return fprintf(stderr, "%s\n", err.message), 1;
    if (sim->strays.n != 1)
        return fprintf(stderr, "the seed's scene has %u strays, not 1: its state would not hold them\n",
                       sim->strays.n), 1;
    snprintf(path, sizeof path, "%s/seed.grains", argv[1]);
    if (grains_checkpoint_write(path, sim, "seed", 4, &err) != GRAINS_OK)
        return fprintf(stderr, "%s\n", err.message), 1;
    snprintf(path, sizeof path, "%s/seed.state", argv[1]);
    FILE *f = fopen(path, "wb");
    bytes_out o;
    bytes_out_init(&o, f);
    if (!f || sim_write_state(sim, &o, &err) != GRAINS_OK || fclose(f) != 0)
        return 1;
    snprintf(path, sizeof path, "%s/seed.share", argv[1]);
    if (!(f = fopen(path, "wb")))
        return 1;
    bytes_out_init(&o, f);
    bytes_put_u64(&o, sim->cs.n_blocks);
    particles_write_state(&sim->pt, &o);
    store_write_state(&sim->cs, &o);
    bytes_put_crc(&o);
    if (o.failed || fclose(f) != 0)
        return 1;
    if (!share_reads(path))
        return fprintf(stderr, "%s: the share's pieces do not read whole with their CRC\n", path), 1;
    grains_sim_destroy(sim);
    return 0;
}
