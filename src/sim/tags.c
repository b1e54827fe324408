/* Tag rules: every particle whose centre lies in a rule's box takes its tag,
 * the rules in their order (a later one wins where boxes overlap). Applied
 * after every step, so a grain that crosses a box (the binary stream's
 * separator) is caught whatever its speed, as long as it spends a step in it. */
#include "sim/sim_internal.h"

static int inside(const grains_tag_rule *t, vec3 x)
{
    return x.x >= t->lo.x && x.x <= t->hi.x && x.y >= t->lo.y && x.y <= t->hi.y && x.z >= t->lo.z && x.z <= t->hi.z;
}

void sim_apply_tag_rules(grains_sim *sim)
{
    const grains_params *p = &sim->p;
    if (!p->n_tag_rules)
        return;
    grains_particles *pt = &sim->pt;
    for (size_t i = 0; i < pt->n; i++)
        for (int k = 0; k < p->n_tag_rules; k++)
            if (inside(&p->tag_rule[k], pt->x[i]))
                pt->tag[i] = p->tag_rule[k].tag;
}
