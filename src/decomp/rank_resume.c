/* A run resumed from a checkpoint on ranks that hold their own particles
 * alone (grains_ranks.local): every rank has read the whole state, the
 * lists and histories of the last rebuild with it, and keeps, before its
 * first step, what a rebuild on ranks would have left it
 * (decomp/rank_local.c), without rebuilding (a rebuild now would sort the
 * particles at other positions than the run that never stopped, and sum
 * in another order):
 *  1. the whole's blocks, which every rank holds alike, are cut by their
 *     particles and contacts, as a rebuild cuts the table;
 *  2. each rank keeps its own blocks' particles and the copies its steps
 *     read: the partners its own particles list or are listed by, the
 *     partners of their intact bonds, and those the insertion regions may
 *     read; the bonds with an own particle, and the histories of the
 *     pairs it evaluates (one of them own);
 *  3. the grid keeps the cells of what is kept, the lists of the own
 *     particles and of the copies that list one of them keep the partners
 *     kept, in their order: each own particle's list and force sum are
 *     the single process's.
 * Ranks that share the simulation before they read the checkpoint (the
 * command line) make the same share as they read it (sim/state.c): the
 * particles' fields and the histories' springs, most of the state, are
 * passed over, the rest, which names what each rank keeps, read whole,
 * and then each rank reads the fields and springs it keeps alone, and
 * its slice of them, a P-th of the file's: it checks every value there
 * and folds it into the file's CRC. The ranks then gather what they found,
 * so that a damaged file gives every rank the error one process reading
 * it whole would give, and the CRC of the whole. Ranks shared after the read
 * (grains_sim_share on a simulation that holds the whole) cut it as they
 * are shared, before any step. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "util/array.h"

/* A rank that cannot keep its part (memory) stops every rank: the others
 * would wait for it in the next collective. */
static void resume_failed(const rank_sim *sim)
{
    const char *why = "out of memory sharing the resumed particles among the ranks: stopping them all";
    sim_ranks_stop(sim, why);
}

/* Whether the lists of a state of n particles, read alike by every rank,
 * still hold: no rebuild due and every block's histories intact. The
 * particles past the grid's are newcomers (sim/newcomers.c: added since
 * the rebuild, listed nowhere), which every rank keeps. */
static int lists_hold(const rank_sim *sim, size_t n)
{
    if (*sim->need_rebuild || *sim->has_pending || n == 0 || sim->grid->n_particles == 0 ||
        sim->grid->n_particles > n || sim->nb->n_particles != sim->grid->n_particles ||
        sim->cs->n_blocks != sim->grid->n_blocks)
        return 0;
    for (size_t b = 0; b < sim->cs->n_blocks; b++)
        if (sim->cs->block[b].failed) /* (the next rebuild reports it) */
            return 0;
    return 1;
}

int sim_ranks_resume_reads(const rank_sim *sim, size_t n) { return lists_hold(sim, n); }

/* Whether every rank holds the whole state with lists that still hold. */
static int holds_whole_lists(const rank_sim *sim)
{
    return rank_local(sim) && !sim->ranks->holds_share && lists_hold(sim, sim->pt->n);
}

/* Step 1: the cut of the whole's blocks, every particle's rank
 * (ranks.mine, rank_of; the grid's blocks are the table's entries). */
static void cut_whole(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    grains_error err;
    r->n_ids = sim->pt->n;
    if (sim_ranks_reserve(sim, &err) != GRAINS_OK)
        resume_failed(sim);
    for (uint32_t b = 0; b < sim->grid->n_blocks; b++)
        r->block_contacts[b] = (uint32_t)sim->cs->block[b].n;
    sim_ranks_cut_table(sim, NULL);
    sim_ranks_own_blocks(sim);
    if (sim_ranks_mark_owned(sim, &err) != GRAINS_OK)
        resume_failed(sim);
}

/* Whether the particle of `id` is held and own (a bond's partner may be
 * held nowhere: the whole's slots name every particle there is). */
static int own_id(const rank_sim *sim, uint32_t id)
{
    uint32_t i = id < sim->pt->slot_cap ? sim->pt->slot[id] : UINT32_MAX;
    return i != UINT32_MAX && sim->ranks->mine[i];
}

#define KEEP 1u
#define LIST 2u /* (with KEEP) its list is kept */

/* Step 2: per particle, KEEP when this rank keeps it, LIST when it keeps
 * its list too. */
static uint8_t *mark_kept(const rank_sim *sim)
{
    const grains_neighbors *nb = sim->nb;
    const uint8_t *mine = sim->ranks->mine;
    size_t n = sim->pt->n;
    uint8_t *mark = calloc(n + 1, 1);
    if (!mark)
        resume_failed(sim);
    sim->doors->spawn_reads(sim->core, mark); /* (1: KEEP) */
    for (size_t i = nb->n_particles; i < n; i++) /* newcomers: every rank's */
        mark[i] |= KEEP;
    for (uint32_t i = 0; i < nb->n_particles; i++) {
        mark[i] |= mine[i] ? KEEP | LIST : 0;
        for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
            uint32_t j = nb->j[k] & STORE_INDEX_MASK;
            if (nb->j[k] & STORE_MESH_BIT)
                continue;
            mark[j] |= mine[i] ? KEEP : 0;
            mark[i] |= mine[j] ? KEEP | LIST : 0;
        }
    }
    const sim_bonds *bs = sim->bonds;
    for (size_t k = 0; k < bs->n; k++) {
        const sim_bond *bd = &bs->list[k];
        if (!bd->broken && (own_id(sim, bd->a) || own_id(sim, bd->b)))
            mark[sim->pt->slot[bd->a]] |= KEEP, mark[sim->pt->slot[bd->b]] |= KEEP; /* (intact: both held) */
    }
    if (sim->mb->n) /* every list is kept: the membranes' patch logs are sized by them */
        for (size_t i = 0; i < n; i++)
            mark[i] |= mark[i] & KEEP ? LIST : 0;
    return mark;
}

/* The bonds with an own particle: the first, or the second of an intact
 * one (decomp/rank_bonds.c); ranks.bonds_whole counts every bond. */
static void keep_bonds(const rank_sim *sim)
{
    sim_bonds *bs = sim->bonds;
    size_t m = 0;
    for (size_t k = 0; k < bs->n; k++) {
        const sim_bond *bd = &bs->list[k];
        if (own_id(sim, bd->a) || (!bd->broken && own_id(sim, bd->b)))
            bs->list[m++] = *bd;
    }
    sim->ranks->bonds_whole = bs->n;
    bs->n = m;
}

/* The last step's patch logs, every block's as read, kept as ranks
 * holding their own keep them (ranks.named_logs: the blocks that gave
 * anything, by table entry, which is the whole grid's block). */
static void keep_patch_logs(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    size_t n = 0, records = 0;
    for (size_t b = 0; sim->mb->n && sim->patches->log && b < sim->grid->n_blocks; b++) {
        n += sim->patches->log[b].n > 0;
        records += sim->patches->log[b].n;
    }
    if (!array_reserve((void **)&r->named_logs, &r->named_logs_cap, n + 1, sizeof *r->named_logs, 2) ||
        !array_reserve((void **)&r->log_entry, &r->log_entry_cap, n + 1, sizeof *r->log_entry, 2) ||
        !array_reserve((void **)&r->named_records, &r->named_records_cap, records + 1, sizeof(patch_record), 2))
        resume_failed(sim);
    r->n_named_logs = 0;
    records = 0;
    for (size_t b = 0; n && b < sim->grid->n_blocks; b++) {
        const patch_log *lg = &sim->patches->log[b];
        if (!lg->n)
            continue;
        r->log_entry[r->n_named_logs] = (uint32_t)b;
        r->named_logs[r->n_named_logs++] = (patch_log){r->named_records + records, lg->n};
        memcpy(r->named_records + records, lg->rec, lg->n * sizeof *lg->rec);
        records += lg->n;
    }
    sim_patch_logs_free(sim->patches); /* (made again for the blocks kept) */
}

/* The keys of the pairs this rank does not evaluate (neither particle
 * own; a mesh contact's, its particle not own) set dead. */
static void drop_theirs(const rank_sim *sim, store_key *keys, size_t n)
{
    const uint8_t *mine = sim->ranks->mine;
    for (size_t k = 0; k < n; k++) {
        store_key *key = &keys[k];
        int theirs = !mine[key->i] && ((key->j & STORE_MESH_BIT) || !mine[key->j]);
        key->i = theirs ? STORE_DEAD : key->i;
    }
}

/* The histories of the pairs this rank evaluates (one particle own; a
 * mesh contact's, its particle's owner), named by the lists as read, in
 * their order: their keys (*keys), and their springs at the start of the
 * store's pool, let go of the rest (store_load: no blocks); how many. */
static size_t keep_histories(const rank_sim *sim, store_key **keys)
{
    contact_store *cs = sim->cs;
    size_t n = 0;
    grains_error err;
    if (store_gather(cs, &n, &err) != GRAINS_OK || !(*keys = malloc((n + 1) * sizeof **keys)))
        resume_failed(sim);
    neighbors_collect_keys(sim->nb, *keys, 0);
    drop_theirs(sim, *keys, n);
    store_compact(cs, *keys, &n);
    if (store_load(cs, n, &err) != GRAINS_OK) /* (shrinks the pool to them) */
        resume_failed(sim);
    array_resize((void **)keys, n + 1, sizeof **keys); /* (a failed shrink keeps the room) */
    return n;
}

/* The checkpoint being read, past all but the spans it keeps from, and
 * what this rank found in its slices of them. */
typedef struct {
    particles_slice fields;
    store_slice springs;
} slices_found;

typedef struct {
    bytes_in *in;
    bytes_span *fields, *springs;
    size_t n;          /* particles in it */
    size_t histories;  /* in it */
    slices_found found;
} resume_file;

/* keep_histories from the file (the store holds the blocks' counts
 * alone): the springs of the pairs kept read from their span into the
 * store's pool, this rank's slice of it checked; *n_kept. */
static void read_histories(const rank_sim *sim, resume_file *file, store_key **keys, size_t *n_kept)
{
    contact_store *cs = sim->cs;
    const grains_ranks *pr = &sim->ranks->peers;
    size_t n = 0, m = 0;
    grains_error err;
    for (size_t b = 0; b < cs->n_blocks; b++)
        n += cs->block[b].n;
    if (!(*keys = malloc((n + 1) * sizeof **keys)))
        resume_failed(sim);
    neighbors_collect_keys(sim->nb, *keys, 0);
    drop_theirs(sim, *keys, n);
    for (size_t k = 0; k < n; k++)
        m += (*keys)[k].i != STORE_DEAD;
    bytes_slicing sl = {pr->rank, pr->size, STORE_READ_WINDOW};
    if (store_load(cs, m, &err) != GRAINS_OK || /* (the counts no longer needed) */
        store_read_slice(cs, file->in, file->springs, n, *keys, store_entry(cs, 0), &sl, &file->found.springs,
                         &err) != GRAINS_OK)
        resume_failed(sim);
    m = 0;
    for (size_t k = 0; k < n; k++)
        if ((*keys)[k].i != STORE_DEAD)
            (*keys)[m++] = (*keys)[k];
    array_resize((void **)keys, m + 1, sizeof **keys); /* (a failed shrink keeps the room) */
    *n_kept = m;
    file->histories = n;
}

/* particles_keep from the file: the fields of those kept read from their
 * span, this rank's slice of it checked (pt.n the whole's until then). */
static void read_particles(const rank_sim *sim, resume_file *file, const uint32_t *where, size_t kept)
{
    const grains_ranks *pr = &sim->ranks->peers;
    grains_error err;
    bytes_slicing sl = {pr->rank, pr->size, PARTICLES_READ_WINDOW};
    if (particles_read_slice(sim->pt, file->in, file->fields, file->n, where, kept, sim->p->n_materials, &sl,
                             &file->found.fields, &err) != GRAINS_OK)
        resume_failed(sim);
}

/* What the ranks found in their slices, gathered (collective): the error
 * one process reading the whole would give, the same on every rank; or
 * the spans' CRCs, joined from the slices', and the file back where the
 * stream stands. */
static grains_status agree_read(const rank_sim *sim, resume_file *file, grains_error *err)
{
    const grains_ranks *pr = &sim->ranks->peers;
    size_t P = (size_t)pr->size, cap = 0;
    size_t *counts = malloc(P * sizeof *counts);
    particles_slice *fields = malloc(P * sizeof *fields);
    store_slice *springs = malloc(P * sizeof *springs);
    if (!counts || !fields || !springs)
        resume_failed(sim);
    const char *all = pr->allgather(pr->ctx, &file->found, sizeof file->found, counts, NULL, &cap);
    for (size_t r = 0; r < P; r++) {
        memcpy(&fields[r], all + r * sizeof file->found, sizeof *fields);
        memcpy(&springs[r], all + r * sizeof file->found + offsetof(slices_found, springs),
               sizeof *springs);
    }
    free((void *)all);
    uint32_t crc_fields = 0, crc_springs = 0;
    bytes_slicing by_particles = {pr->rank, pr->size, PARTICLES_READ_WINDOW};
    bytes_slicing by_histories = {pr->rank, pr->size, STORE_READ_WINDOW};
    grains_status s = particles_slice_error(fields, pr->size, err);
    if (s == GRAINS_OK)
        s = store_slice_error(springs, pr->size, err);
    grains_error nomem;
    if (s == GRAINS_OK &&
        (particles_fields_crc(fields, &by_particles, file->n, &crc_fields, &nomem) != GRAINS_OK ||
         store_springs_crc(sim->cs, springs, &by_histories, file->histories, &crc_springs, &nomem) != GRAINS_OK))
        resume_failed(sim);
    if (s == GRAINS_OK) {
        bytes_span_known(file->in, file->springs, crc_springs);
        bytes_span_known(file->in, file->fields, crc_fields);
    }
    free(counts);
    free(fields);
    free(springs);
    return s;
}

/* Step 3, the lists: those marked LIST, of the partners kept, renamed by
 * where[] (which keeps the order: each list keeps j > i), in place (what
 * is written lies at or before what is read), their room cut to them;
 * `kept` of the grid's particles kept. */
static void keep_lists(const rank_sim *sim, const uint8_t *mark, const uint32_t *where, size_t kept)
{
    grains_neighbors *nb = sim->nb;
    uint32_t at = 0, lo = 0;
    for (uint32_t i = 0; i < nb->n_particles; i++) {
        uint32_t hi = nb->start[i + 1]; /* (read before start[where[i] + 1] <= start[i + 1] is written) */
        for (uint32_t k = lo; k < hi && (mark[i] & LIST); k++) {
            uint32_t e = nb->j[k] & ~STORE_HIST_BIT; /* (marked again as the histories attach) */
            if (e & STORE_MESH_BIT)
                nb->j[at++] = e;
            else if (mark[e])
                nb->j[at++] = where[e];
        }
        if (mark[i])
            nb->start[where[i] + 1] = at;
        lo = hi;
    }
    nb->n_particles = kept;
    nb->n = at;
    if (array_resize((void **)&nb->j, (size_t)at + 1, sizeof *nb->j)) /* (a failed shrink keeps the room) */
        nb->cap = (size_t)at + 1;
    if (array_resize((void **)&nb->start, kept + 1, sizeof *nb->start))
        nb->cap_start = kept + 1;
}

/* The grid of the cells of what is kept. */
static void keep_cells(const rank_sim *sim, const uint8_t *mark)
{
    grains_grid *g = sim->grid;
    uint32_t *count = malloc((g->n_cells + 1) * sizeof *count);
    if (!count)
        resume_failed(sim);
    for (size_t c = 0; c < g->n_cells; c++) {
        count[c] = 0;
        for (uint32_t i = g->first[c]; i < g->first[c + 1]; i++)
            count[c] += mark[i] != 0;
    }
    if (!grid_keep(g, count))
        resume_failed(sim);
    free(count);
}

/* The kept histories (their springs at the start of the store's pool, in
 * the keys' order): keys renamed by where[], then each into its place in
 * the kept lists. */
static void attach_kept(const rank_sim *sim, store_key *keys, size_t n, const uint32_t *where)
{
    grains_error err;
    for (size_t k = 0; k < n; k++) {
        keys[k].i = where[keys[k].i];
        keys[k].j = keys[k].j & STORE_MESH_BIT ? keys[k].j : where[keys[k].j];
    }
    sim_ranks *r = sim->ranks;
    if (!array_reserve((void **)&r->first, &r->first_cap, sim->pt->n + 1, sizeof *r->first, 8) ||
        sim->doors->attach_histories(sim->core, keys, n, r->first, &err) != GRAINS_OK)
        resume_failed(sim);
}

/* What a rebuild on ranks makes after its sort: the blocks' owners, the
 * table's places, the own particles, what the steps size from the lists,
 * the visits and the halo (collective). */
static grains_status plan_kept(const rank_sim *sim, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    sim_ranks_release(r); /* (sized for the whole) */
    if (sim_ranks_reserve(sim, err) != GRAINS_OK)
        resume_failed(sim);
    r->holds_share = 1;
    r->dealt = r->ranged = 0;
    r->dealt_from = r->dealt_to = r->range_next = r->range_end = 0;
    r->writer_whole = r->windows_valid = r->thermo_whole = r->stale = r->moving = 0;
    sim_ranks_own_blocks(sim);
    sim_ranks_place_table(sim);
    if (sim_ranks_mark_owned(sim, err) != GRAINS_OK)
        resume_failed(sim);
    grains_status s = walls_reserve_blocks(sim->wl, sim->grid->n_blocks, err);
    if (s == GRAINS_OK)
        s = sim->doors->size_from_lists(sim->core, err);
    if (s != GRAINS_OK) /* (memory, on this rank alone) */
        resume_failed(sim);
    sim_ranks_plan_lists(sim);
    sim_ranks_planned(sim);
    return GRAINS_OK;
}

/* The share, from the whole state held (file NULL) or as it is read. */
static grains_status keep_share(const rank_sim *sim, resume_file *file, grains_error *err)
{
    cut_whole(sim);
    uint8_t *mark = mark_kept(sim);
    uint32_t *where = malloc((sim->pt->n + 1) * sizeof *where);
    if (!where)
        resume_failed(sim);
    size_t kept = 0, n_keys = 0, binned = 0;
    for (size_t i = 0; i < sim->pt->n; i++) {
        where[i] = mark[i] ? (uint32_t)kept++ : UINT32_MAX;
        binned = i < sim->grid->n_particles ? kept : binned;
    }
    store_key *keys = NULL;
    if (file)
        read_histories(sim, file, &keys, &n_keys);
    else
        n_keys = keep_histories(sim, &keys);
    keep_bonds(sim);
    if (sim->mb->n)
        keep_patch_logs(sim);
    keep_lists(sim, mark, where, binned);
    keep_cells(sim, mark);
    if (file)
        read_particles(sim, file, where, kept);
    else
        particles_keep(sim->pt, mark);
    free(mark);
    grains_status s = file ? agree_read(sim, file, err) : GRAINS_OK; /* (a damaged file fails every rank alike) */
    if (s == GRAINS_OK)
        attach_kept(sim, keys, n_keys, where);
    free(where);
    free(keys);
    return s == GRAINS_OK ? plan_kept(sim, err) : s;
}

grains_status sim_ranks_resume_local(const rank_sim *sim, grains_error *err)
{
    return holds_whole_lists(sim) ? keep_share(sim, NULL, err) : GRAINS_OK;
}

grains_status sim_ranks_resume_read(const rank_sim *sim, bytes_in *in, size_t n, bytes_span *fields,
                                    bytes_span *springs, grains_error *err)
{
    resume_file file = {.in = in, .fields = fields, .springs = springs, .n = n};
    sim->pt->n = n; /* (what the cut counts; their fields are read last) */
    grains_status s = keep_share(sim, &file, err);
    if (s != GRAINS_OK)
        sim->pt->n = 0; /* (none read whole) */
    return s;
}
