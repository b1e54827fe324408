/* The MPI layer (src/parallel/), run under mpirun with 1, 2 and 3 ranks.
 * The fact checked: a rank holding only its share of the particles (a
 * slab of a cloud of two sizes, stored in reverse order, alone or with
 * copies of others' particles, as a halo) frames its grid
 * by reductions over the ranks as one process holding them all frames it,
 * and stores its particles in that process's order, for any rank count:
 * the ground on which results are the same bits for any number of ranks. */
#include <stdio.h>

#include "check.h"
#include "cloud.h"
#include "parallel/comm.h"
#include "decomp/block_table.h"
#include "decomp/rank_cut.h"
#include "decomp/rank_move.h"

static void share_case(test_ctx *t, grains_comm *comm, double ratio, int periodic, int halo)
{
    const real pad = 0.3e-3;
    int rank = comm_rank(comm), size = comm_size(comm);
    cloud c = make_cloud(3000, 12, ratio, periodic, 11u);
    uint32_t *where = malloc(c.n * sizeof *where), *ids = malloc(4 * c.n * sizeof *ids);
    uint32_t *by_id = ids + c.n, *mine = by_id + c.n, *at = mine + c.n;
    vec3 *x = malloc(c.n * sizeof *x);
    real *R = malloc(c.n * sizeof *R);
    grains_grid whole = {0}, g = {0};
    grains_error err;
    grid_particles all = {c.x, c.R, NULL, c.n, NULL, NULL, 1};
    grains_status s = grid_build(&whole, &all, pad, &c.box, where, NULL, 0, &err);
    uint8_t *copy = malloc(c.n);
    size_t n = halo ? take_held(&c, rank, size, x, R, ids, by_id, copy) : take_share(&c, rank, size, x, R, ids, by_id);
    grid_share share = comm_grid_share(comm);
    grid_particles part = {x, R, by_id, n, &share, halo ? copy : NULL, 1};
    s = s == GRAINS_OK ? grid_build(&g, &part, pad, &c.box, mine, NULL, 0, &err) : s;
    CHECK(t, s == GRAINS_OK, "rank %d of %d: grids built", rank, size);
    const char *held_as = halo ? "with copies of others'" : "alone";
    if (s == GRAINS_OK) {
        CHECK(t, same_frame(&g, &whole), "rank %d of %d, ratio %g, %s, %s: the share's grid has the whole's levels, "
              "origin and blocks", rank, size, ratio, periodic ? "periodic" : "open", held_as);
        for (size_t m = 0; m < n; m++)
            at[mine[m]] = where[ids[m]];
        int ordered = 1;
        for (size_t m = 1; m < n; m++)
            ordered = ordered && at[m - 1] < at[m];
        CHECK(t, ordered, "rank %d of %d, ratio %g, %s, %s: its %zu particles stored in the whole's order", rank,
              size, ratio, periodic ? "periodic" : "open", held_as, n);
    }
    grid_free(&whole), grid_free(&g);
    free(where), free(ids), free(x), free(R), free(copy);
    free_cloud(&c);
}

/* Share k of the cloud scattered through space (the particles whose id,
 * their index in the cloud, is k modulo the shares), as particles whose
 * fields name them: v.x = id, tag = -id, material id mod 3. */
static void scattered_share(const cloud *c, int k, int shares, grains_particles *pt)
{
    grains_error err;
    pt->n = 0;
    particles_reserve(pt, c->n, &err);
    for (uint32_t i = (uint32_t)k; i < c->n; i += (uint32_t)shares) {
        size_t m = pt->n++;
        pt->x[m] = c->x[i], pt->R[m] = c->R[i], pt->v[m] = v3(i, 0, 0), pt->w[m] = v3(0, i, 0);
        pt->q[m] = (quat){1, 0, 0, 0}, pt->mat[m] = (uint8_t)(i % 3), pt->tag[m] = -(int32_t)i, pt->id[m] = i;
    }
}

/* The share binned in its grid (of the whole's frame) and stored in its order. */
static grains_status bin_share(grains_grid *g, grains_particles *pt, const uint8_t *copy, grid_share *share,
                               const periodic_box *box, real pad, grains_error *err)
{
    size_t n = pt->n;
    uint32_t *where = malloc((n + 1) * sizeof *where), *by_id = malloc((n + 1) * sizeof *by_id);
    uint64_t *order = malloc((n + 1) * sizeof *order);
    for (size_t m = 0; m < n; m++)
        order[m] = (uint64_t)pt->id[m] << 32 | m;
    qsort(order, n, sizeof *order, cloud_by_u64);
    for (size_t m = 0; m < n; m++)
        by_id[m] = (uint32_t)order[m];
    grid_particles in = {pt->x, pt->R, by_id, n, share, copy, 1};
    grains_status s = grid_build(g, &in, pad, box, where, NULL, 0, err);
    grains_particles sorted = {0};
    particles_reserve(&sorted, n, err);
    for (size_t m = 0; s == GRAINS_OK && m < n; m++) {
        uint32_t w = where[m];
        sorted.x[w] = pt->x[m], sorted.R[w] = pt->R[m], sorted.v[w] = pt->v[m], sorted.w[w] = pt->w[m];
        sorted.q[w] = pt->q[m], sorted.mat[w] = pt->mat[m], sorted.tag[w] = pt->tag[m], sorted.id[w] = pt->id[m];
    }
    sorted.n = n;
    if (s == GRAINS_OK) {
        particles_free(pt);
        *pt = sorted;
    } else {
        particles_free(&sorted);
    }
    free(where), free(by_id), free(order);
    return s;
}

/* Per block of g: the particles with an odd id (a stand-in for contacts,
 * so that the table's second count is checked as its first). */
static uint32_t *odd_ids(const grains_grid *g, const uint32_t *id_at)
{
    uint32_t *n = calloc(g->n_blocks + 1, sizeof *n);
    for (uint32_t b = 0; b < g->n_blocks; b++)
        for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++)
            n[b] += id_at[i] & 1;
    return n;
}

/* The blocks of a table cut among `size` ranks: owner per entry. */
static int *cut_table(const block_table *tb, const grains_grid *frame, int size)
{
    block_point *p = malloc((tb->n + 1) * sizeof *p);
    int *owner = malloc((tb->n + 1) * sizeof *owner);
    cut_plane *planes = malloc((size_t)size * sizeof *planes);
    for (size_t k = 0; k < tb->n; k++)
        p[k] = rank_cut_point(frame, tb->e[k].key, tb->e[k].particles + 3ull * tb->e[k].contacts, (uint32_t)k);
    rank_cut_bisect(p, tb->n, size, owner, planes);
    free(p), free(planes);
    return owner;
}

/* Whether particles a and b of the cloud may be listed as a pair: within
 * R_a + R_b + pad (nearest image). */
static int may_pair(const cloud *c, size_t a, size_t b, real pad)
{
    vec3 d = periodic_delta(&c->box, v3_sub(c->x[a], c->x[b]));
    real reach = c->R[a] + c->R[b] + pad;
    return v3_dot(d, d) < reach * reach;
}

/* A rebuild without every position: each rank holds a scattered share of
 * the cloud; from the grids of their shares alone the ranks merge the
 * whole's blocks (the same keys, in its order, with its counts), cut them
 * as one process cuts the whole's, and move the particles: each rank then
 * holds its blocks' particles, whole, as its own, and every partner of
 * them in a pair the lists may hold; binned with the copies counted out it
 * stores them in the whole's order. */
static void move_case(test_ctx *t, grains_comm *comm, double ratio, int periodic)
{
    const real pad = 0.3e-3;
    int rank = comm_rank(comm), size = comm_size(comm);
    char what[96];
    snprintf(what, sizeof what, "rank %d of %d, ratio %g, %s", rank, size, ratio, periodic ? "periodic" : "open");
    cloud c = make_cloud(3000, 12, ratio, periodic, 23u);
    grains_error err;
    grains_grid whole = {0}, g = {0}, held_grid = {0};
    uint32_t *where = malloc(c.n * sizeof *where), *id_at = malloc(c.n * sizeof *id_at);
    grid_particles all = {c.x, c.R, NULL, c.n, NULL, NULL, 1};
    grains_status s = grid_build(&whole, &all, pad, &c.box, where, NULL, 0, &err);
    for (uint32_t i = 0; i < c.n; i++)
        id_at[where[i]] = i;
    block_table whole_table = {0}, tb = {0};
    uint32_t *whole_odd = odd_ids(&whole, id_at);
    block_table_own(&whole_table, &whole, NULL, whole_odd, &err);
    int *whole_owner = cut_table(&whole_table, &whole, size);

    grains_particles mine = {0};
    scattered_share(&c, rank, size, &mine);
    grid_share share = comm_grid_share(comm);
    s = s == GRAINS_OK ? bin_share(&g, &mine, NULL, &share, &c.box, pad, &err) : s;
    uint32_t *odd = odd_ids(&g, mine.id);
    grains_ranks ranks = comm_ranks(comm);
    const int with_sums = ratio > 2; /* (a removal's rebuild: the force sums travel too) */
    for (size_t m = 0; m < mine.n; m++)
        mine.f[m] = v3(0, 0, mine.id[m]), mine.t[m] = v3(mine.id[m], 0, 0);
    s = s == GRAINS_OK ? block_table_own(&tb, &g, NULL, odd, &err) : s;
    s = s == GRAINS_OK ? block_table_merge(&tb, &ranks, &err) : s;
    CHECK(t, s == GRAINS_OK, "%s: shares binned, tables merged", what);
    CHECK(t, tb.n == whole.n_blocks && !memcmp(tb.e, whole_table.e, tb.n * sizeof *tb.e),
          "%s: the merged table of the shares' blocks is the whole grid's (%zu blocks, keys and counts)", what, tb.n);
    int *owner = cut_table(&tb, &g, size);
    CHECK(t, tb.n == whole.n_blocks && !memcmp(owner, whole_owner, tb.n * sizeof *owner),
          "%s: the cut of the table is the cut of the whole grid's blocks", what);

    rank_held held = {0};
    s = s == GRAINS_OK ? rank_move(&mine, NULL, NULL, &g, &tb, owner, &ranks, with_sums, &held, &err) : s;
    CHECK(t, s == GRAINS_OK, "%s: moved", what);
    uint8_t *holds = calloc(c.n, 1); /* 1 own, 2 a copy */
    int *of = malloc(c.n * sizeof *of), fields = 1;
    for (uint32_t b = 0; b < whole.n_blocks; b++)
        for (uint32_t i = whole.first[whole.block_start[b]]; i < whole.first[whole.block_start[b + 1]]; i++)
            of[id_at[i]] = whole_owner[b];
    for (size_t m = 0; s == GRAINS_OK && m < held.pt.n; m++) {
        uint32_t id = held.pt.id[m];
        holds[id] |= (uint8_t)(m < held.own ? 1 : 2);
        fields = fields && held.pt.v[m].x == id && held.pt.w[m].y == id && held.pt.tag[m] == -(int32_t)id &&
                 held.pt.mat[m] == id % 3 && held.pt.R[m] == c.R[id] && held.pt.x[m].z == c.x[id].z &&
                 held.pt.f[m].z == (with_sums ? id : 0) && held.pt.t[m].x == (with_sums ? id : 0);
    }
    size_t own_right = 0, own_wrong = 0, missing = 0, needed = 0, copies = held.pt.n - held.own;
    for (uint32_t i = 0; i < c.n; i++) {
        own_right += (of[i] == rank) == ((holds[i] & 1) != 0);
        own_wrong += holds[i] == 3;
    }
    uint8_t *needs = calloc(c.n, 1);
    for (uint32_t a = 0; a < c.n; a++)
        for (uint32_t b = a + 1; b < c.n; b++)
            if ((of[a] == rank) != (of[b] == rank) && may_pair(&c, a, b, pad)) {
                uint32_t other = of[a] == rank ? b : a;
                needs[other] = 1;
                missing += !(holds[other] & 2);
            }
    for (uint32_t i = 0; i < c.n; i++)
        needed += needs[i];
    CHECK(t, own_right == c.n && own_wrong == 0 && fields,
          "%s: each rank holds its blocks' particles as its own, once, with every field (%s the force sums)", what,
          with_sums ? "and" : "not");
    CHECK(t, missing == 0, "%s: every partner of an own particle is held (%zu copies for the %zu the pairs need, "
          "%zu missing)", what, copies, needed, missing);
    printf("  %-32s %zu own, %zu copies held for the %zu the pairs need\n", what, held.own, copies, needed);

    uint8_t *copy = malloc(held.pt.n + 1);
    for (size_t m = 0; m < held.pt.n; m++)
        copy[m] = m >= held.own;
    s = s == GRAINS_OK ? bin_share(&held_grid, &held.pt, copy, &share, &c.box, pad, &err) : s;
    int ordered = s == GRAINS_OK && same_frame(&held_grid, &whole);
    for (size_t m = 1; ordered && m < held.pt.n; m++)
        ordered = where[held.pt.id[m - 1]] < where[held.pt.id[m]];
    CHECK(t, ordered, "%s: what a rank holds, binned with the copies counted out, is in the whole's order", what);

    free(holds), free(of), free(needs), free(owner), free(whole_owner), free(odd), free(whole_odd), free(copy);
    rank_held_free(&held);
    particles_free(&mine);
    block_table_free(&tb), block_table_free(&whole_table);
    grid_free(&whole), grid_free(&g), grid_free(&held_grid);
    free(where), free(id_at);
    free_cloud(&c);
}

int main(int argc, char **argv)
{
    test_ctx t = {0, 0};
    grains_comm *comm;
    grains_error err;
    if (comm_start(&argc, &argv, &comm, &err) != GRAINS_OK) {
        fprintf(stderr, "test_comm: %s\n", err.message);
        return 1;
    }
    for (int periodic = 0; periodic < 2; periodic++)
        for (int halo = 0; halo < 2; halo++) {
            share_case(&t, comm, 1.2, periodic, halo);
            share_case(&t, comm, 10, periodic, halo);
        }
    for (int periodic = 0; periodic < 2; periodic++) {
        move_case(&t, comm, 1.2, periodic);
        move_case(&t, comm, 10, periodic);
    }
    char name[32];
    snprintf(name, sizeof name, "test_comm rank %d/%d", comm_rank(comm), comm_size(comm));
    int failed = test_report(&t, name);
    comm_stop(comm);
    return failed;
}
