/* Fuzzes the checkpoint reader: the file's header and CRC, then the state
 * read into a simulation of the scene that wrote the seed corpus
 * (make_checkpoint_seed in this file's replay build writes it). Inputs
 * whose CRC fails stop at read_app; to reach the state's own checks the
 * harness also reads the state without the CRC check first. Third, the
 * pieces ranks holding their own read their share by (sim/state.c's
 * read_share, which needs ranks to run): the bytes as a block count, the
 * particles and the contact histories, every other particle and history
 * kept, the parts passed over read after by two readers in slices (as
 * ranks read them), their CRCs joined and spliced into the stream's. */
#include <string.h>

#include "fuzz_input.h"
#include "grains/checkpoint.h"
#include "grains/mesh.h"
#include "grains/sim.h"
#include "contact/store.h"
#include "particles/particles.h"
#include "sim/sim_internal.h"
#include "sim/state.h"
#include "util/bytes.h"

/* The scene of the seed: a floor given a table motion and 20 falling grains, 30 steps. */
grains_sim *fuzz_checkpoint_scene(void);
grains_sim *fuzz_checkpoint_scene(void)
{
    grains_params p;
    grains_params_default(&p);
    p.threads = 1;
    p.N_max = 0;
    grains_params_derive(&p);
    grains_sim *sim = NULL;
    grains_error err;
    if (grains_sim_create(&sim, &p, &err) != GRAINS_OK)
        abort();
    for (int k = 0; k < 20; k++) {
        grains_particle q = {{0.009 * (k % 5), 0.009 * (k / 5), 0.2}, {0, 0, -1}, {0, 0, 0}, {1, 0, 0, 0}, 0.004, 0, 0};
        grains_sim_add_particle(sim, &q, &err);
    }
    /* two let go: the removed particles' uids, ranges the state holds */
    const size_t gone[2] = {3, 7};
    grains_sim_remove(sim, 2, gone, &err);
    /* one falling away below the floor: a stray, whose bound the state holds last */
    grains_particle stray = {{0, 0, -0.5}, {0, 0, -3}, {0, 0, 0}, {1, 0, 0, 0}, 0.004, 0, 0};
    grains_sim_add_particle(sim, &stray, &err);
    /* the floor, given a table motion mid-run: the state's meshes with a motion of their own */
    grains_mesh *floor = NULL;
    const uint32_t v[4] = {0, 1, 2, 3};
    const grains_vec3 c[4] = {{-0.1, -0.1, 0}, {0.1, -0.1, 0}, {0.1, 0.1, 0}, {-0.1, 0.1, 0}};
    const grains_motion_sample rows[2] = {{0, {0, 0, 0}, 0}, {1, {0.1, 0, 0}, 0.5}};
    grains_motion m = grains_motion_fixed();
    m.type = GRAINS_MOTION_TABLE;
    m.table = rows;
    m.n_table = 2;
    int ok = grains_mesh_create(&floor, &err) == GRAINS_OK;
    for (int k = 0; ok && k < 4; k++)
        ok = grains_mesh_add_vertex(floor, c[k], &err) == GRAINS_OK;
    ok = ok && grains_mesh_add_element(floor, 4, v, 0, 0, &err) == GRAINS_OK &&
         grains_sim_add_mesh(sim, floor, NULL, &err) == GRAINS_OK && grains_sim_set_motion(sim, 0, &m, &err) == GRAINS_OK;
    grains_mesh_destroy(floor);
    if (!ok)
        abort();
    return sim;
}

/* Every other one of n kept: where[i] its place, or UINT32_MAX; how many. */
static size_t every_other(uint32_t *where, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        where[i] = i % 2 ? UINT32_MAX : (uint32_t)kept++;
    return kept;
}

/* Two readers (ranks), in slices of 4 particles, each keeping every other
 * one; their findings joined as the ranks join them. */
static void read_particles_share(bytes_in *in, bytes_span *fields)
{
    grains_particles pt[2] = {{0}, {0}};
    particles_slice found[2];
    grains_error err;
    size_t n;
    if (particles_read_head(&pt[0], in, &n, fields, &err) == GRAINS_OK &&
        particles_reserve_ids(&pt[1], n, &err) == GRAINS_OK) {
        if (n) /* (no ids: no room) */
            memcpy(pt[1].slot, pt[0].slot, n * sizeof *pt[1].slot);
        uint32_t *where = malloc((n + 1) * sizeof *where);
        size_t kept = every_other(where, n);
        int read = 1;
        for (int r = 0; r < 2; r++) {
            bytes_slicing sl = {r, 2, 4};
            read = read && particles_read_slice(&pt[r], in, fields, n, where, kept, 2, &sl, &found[r], &err) ==
                               GRAINS_OK;
        }
        bytes_slicing sl = {0, 2, 4};
        uint32_t crc;
        if (read && particles_slice_error(found, 2, &err) == GRAINS_OK &&
            particles_fields_crc(found, &sl, n, &crc, &err) == GRAINS_OK)
            bytes_span_known(in, fields, crc);
        free(where);
    }
    particles_free(&pt[0]);
    particles_free(&pt[1]);
}

/* The histories as read_particles_share reads the particles, in slices of
 * 2 histories. */
static void read_store_share(bytes_in *in, size_t n_blocks, bytes_span *springs)
{
    contact_store cs;
    grains_error err;
    grains_sim *scene = fuzz_checkpoint_scene();
    store_init(&cs, scene->cs.layout);
    grains_sim_destroy(scene);
    if (store_read_counts(&cs, in, n_blocks, springs, &err) == GRAINS_OK) {
        size_t n = 0;
        for (size_t b = 0; b < cs.n_blocks; b++)
            n += cs.block[b].n;
        store_key *keys = malloc((n + 1) * sizeof *keys);
        real *kept = malloc((n * (size_t)cs.layout.width + 1) * sizeof *kept);
        for (size_t k = 0; k < n; k++)
            keys[k] = (store_key){k % 2 ? STORE_DEAD : 0, 1};
        store_slice found[2];
        int read = 1;
        for (int r = 0; r < 2; r++) {
            bytes_slicing sl = {r, 2, 2};
            read = read && store_read_slice(&cs, in, springs, n, keys, kept, &sl, &found[r], &err) == GRAINS_OK;
        }
        bytes_slicing sl = {0, 2, 2};
        uint32_t crc;
        if (read && store_slice_error(found, 2, &err) == GRAINS_OK &&
            store_springs_crc(&cs, found, &sl, n, &crc, &err) == GRAINS_OK)
            bytes_span_known(in, springs, crc);
        free(keys);
        free(kept);
    }
    store_free(&cs);
}

/* The share's pieces (seed.share: u64 blocks, particles, store, CRC);
 * whether they read whole, to the end, with the CRC written. */
int fuzz_checkpoint_share(const uint8_t *data, size_t size);
int fuzz_checkpoint_share(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size ? size : 1, "rb");
    if (!f)
        return 0;
    bytes_in in;
    bytes_span fields = {0}, springs = {0};
    bytes_in_init(&in, f, size);
    uint64_t n_blocks = bytes_get_u64(&in);
    read_particles_share(&in, &fields);
    if (n_blocks <= size)
        read_store_share(&in, (size_t)n_blocks, &springs);
    bytes_splice(&in, &springs); /* (the last passed over first) */
    bytes_splice(&in, &fields);
    int whole = !in.bad && bytes_check_crc(&in) && in.left == 0;
    fclose(f);
    return whole;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".grains");
    grains_error err;
    void *app = NULL;
    size_t n = 0;
    grains_sim *sim = fuzz_checkpoint_scene();
    if (grains_checkpoint_read_app(path, &app, &n, &err) == GRAINS_OK)
        grains_checkpoint_read_sim(path, sim, &err);
    free(app);
    grains_sim_destroy(sim);
    /* the state's own checks, past the CRC: the bytes as a state stream */
    FILE *f = fmemopen((void *)data, size ? size : 1, "rb");
    if (f) {
        bytes_in in;
        bytes_in_init(&in, f, size);
        sim = fuzz_checkpoint_scene();
        if (sim_read_state(sim, &in, &err) == GRAINS_OK) /* a state that reads must step */
            grains_sim_advance(sim, 3, &err);
        grains_sim_destroy(sim);
        fclose(f);
    }
    fuzz_checkpoint_share(data, size);
    return 0;
}
