/* Bonds between particles: the list, its index by slot, formation, forces and the checkpoint's
 * part (bonds/bonds.c; the law of one bond in bonds/bond.h, the ranks' part in
 * decomp/rank_bonds.c, the file in io/bonds_csv.c). */
#ifndef GRAINS_BONDS_BONDS_H
#define GRAINS_BONDS_BONDS_H

#include <stdint.h>

#include "contact/hertz_mindlin.h"
#include "geometry/periodic.h"
#include "grains/sim.h"
#include "interact/force_diag.h"
#include "neighbor/neighbor.h"
#include "particles/particles.h"
#include "util/bytes.h"

/* One bond between particles a < b (ids), its springs and last forces. */
typedef struct {
    uint32_t a, b;
    int broken;
    hm_history h;        /* sliding, rolling, twisting springs (bonds/bond.h) */
    real force, torque;  /* magnitudes on a at the last step */
} sim_bond;

/* A bond's push on its two particles in a step (f on a, -f on b), found
 * by any thread, added to their sums in the bonds' order by one. */
typedef struct {
    vec3 f, t_a, t_b;
    int state;           /* BOND_PUSHES, BOND_BROKE (this step) or BOND_IDLE (broken before) */
} bond_push;

/* The bonds sorted by (a, b), and for each storage slot its bonded
 * partners' slots, rebuilt with the lists (bonds/bonds.c). */
typedef struct {
    sim_bond *list;
    size_t n, cap;
    int sorted;
    int formed;          /* bond_tolerance's bonds have been formed */
    uint32_t *start, *partner;
    size_t start_cap, partner_cap;
    size_t indexed;      /* particles the index covers (start has one more) */
    bond_push *push;     /* per bond evaluated in a step: its result, applied in the bonds' order */
    size_t push_cap;
} sim_bonds;

/* What the bonds see of a simulation (the core makes it: sim_bonds_of):
 * their list, the particles they join and push, the periodic box, and the
 * run's law (bond_* of p, the materials' densities in hp). */
typedef struct {
    sim_bonds *bonds;
    grains_particles *pt;
    const periodic_box *box;
    const grains_params *p;
    const hm_params *hp;
} bonds_view;

/* Bonds (bonds/bonds.c): one bond added between ids a and b of the n_ids
 * of the whole (RANGE: not two of them, or bond_kn not positive); the
 * index by slot after a rebuild; formation from proximity at the first
 * step, through the candidate lists nb (with `mine`, per particle, the
 * pairs with an own particle alone; NULL: all); the forces of a step (a
 * worksharing loop of the step's team when threads > 1: evaluated by
 * every thread, added in the bonds' order by one, which notes in d
 * whether one broke). Each one that adds bonds or breaks one leaves the
 * index by slot old: the caller has the lists rebuilt. */
grains_status sim_bonds_add(sim_bonds *bs, size_t a, size_t b, size_t n_ids, real bond_kn, grains_error *err);
grains_status sim_bonds_index(sim_bonds *bs, const grains_particles *pt, grains_error *err);
grains_status sim_bonds_form(const bonds_view *v, const grains_neighbors *nb, const uint8_t *mine, size_t n_ids,
                             grains_error *err);
void sim_bond_forces(const bonds_view *v, const uint32_t *which, size_t n_which, int threads, force_diag *d);
void sim_bonds_free(sim_bonds *bs);
void sim_bonds_sort(sim_bonds *bs);
/* What the core asks of the bonds (it reads none of their members): how
 * many there are, whether the index by slot exists, whether
 * bond_tolerance's bonds have formed (and that they have, before forming
 * them). */
static inline size_t sim_bonds_count(const sim_bonds *bs) { return bs->n; }
static inline int sim_bonds_indexed(const sim_bonds *bs) { return bs->start != NULL; }
static inline int sim_bonds_formed(const sim_bonds *bs) { return bs->formed; }
static inline void sim_bonds_mark_formed(sim_bonds *bs) { bs->formed = 1; }

/* The bonds by their place in the list sorted by (a, b) (bonds/bond_records.c):
 * how many; the intact ones' pairs a0 b0 a1 b1 ... in *pairs (malloc'ed;
 * SIZE_MAX out of memory), their count returned; bond k read; bond k set
 * from `in` (RANGE: no such bond, another pair, a value not finite), with
 * *index_old set when it broke or healed (the caller has the lists rebuilt). */
size_t sim_bonds_sorted_count(sim_bonds *bs);
size_t sim_bonds_intact_pairs(sim_bonds *bs, size_t **pairs);
void sim_bonds_get(sim_bonds *bs, size_t k, grains_bond *out);
grains_status sim_bonds_set(sim_bonds *bs, size_t k, const grains_bond *in, int *index_old, grains_error *err);

/* Whether ids a < b are joined by an intact bond; and the bonds whose
 * particles stay (gone[id] == 0) renamed to renamed[id], those of removed
 * ones ended (bonds/bond_records.c). */
int sim_bonds_hold(const sim_bonds *bs, uint32_t a, uint32_t b);
/* How many bonds have broken (and stay listed until a removal). */
size_t sim_bonds_broken(const sim_bonds *bs);
void sim_bonds_keep(sim_bonds *bs, const uint8_t *gone, const uint32_t *renamed);

/* For each of n particles, its partners through the bonds for which
 * keep[k] is set (NULL: the intact ones), slot[id] their places: the
 * index sim_bonds_index builds; 0 out of memory. */
int sim_bonds_fill_index(sim_bonds *bs, size_t n, const uint32_t *slot, const uint8_t *keep);
/* The index let go (no bond left: as one that never had any). */
void sim_bonds_drop_index(sim_bonds *bs);

/* Whether slots i and j are bonded (intact, as indexed at the last rebuild). */
static inline int sim_bonds_join(const sim_bonds *bs, uint32_t i, uint32_t j)
{
    for (uint32_t k = bs->start[i]; k < bs->start[i + 1]; k++)
        if (bs->partner[k] == j)
            return 1;
    return 0;
}

/* The bonds, their springs and the index by slot as it stands (it keeps a
 * bond broken since the last rebuild, as the force loop does) for
 * checkpoints, and back for n particles; an error without a file name. */
void sim_bonds_write_state(const sim_bonds *bs, size_t n_particles, bytes_out *o);
grains_status sim_bonds_read_state(sim_bonds *bs, bytes_in *in, size_t n_particles, grains_error *err);

#endif
