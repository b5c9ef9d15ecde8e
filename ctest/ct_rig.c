/*
 * ct_rig.c - the shared driver test rig (see ct_rig.h).
 */
#include <stdio.h>
#include <string.h>

#include "ct.h"
#include "ct_rig.h"

int ct_rig_open(struct ct_rig *r, struct ucm_config *cfg, unsigned ncbo, const struct ucd_opts *o)
{
	struct ucm_config def;

	memset(r, 0, sizeof(*r));
	if (!cfg) {
		ucm_config_init(&def, ucm_platform_find("skl"));
		if (ncbo)
			def.ninst[ucm_boxtype_index(def.plat, def.plat->counted)] = ncbo;
		cfg = &def;
	}
	r->p = cfg->plat;
	cfg->strict = 1;
	if (ucm_create(cfg, &r->m) || ucb_sim_create(r->m, &r->be))
		return -1;
	if (ucd_open(r->be, o, &r->d)) {
		fprintf(stderr, "ucd_open: %s\n", ucd_error(r->d));
		return -1;
	}
	ucm_truth_mark(r->m);
	return 0;
}

void ct_rig_close(struct ct_rig *r)
{
	ucd_close(r->d);
	ucb_destroy(r->be);
	ucm_destroy(r->m);
}

int ct_feed(struct ucm_model *m, const char *box, int inst, const char *sub, uint32_t inc)
{
	int n = 0;

	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);
		int s;

		if (strcmp(bi->type->name, box) || (inst >= 0 && bi->inst != (unsigned)inst))
			continue;
		s = ucm_subev_find(bi->type, sub);
		if (s < 0 || ucm_set_input(m, (int)b, (unsigned)s, inc))
			return -1;
		n++;
	}
	return n ? 0 : -1;
}

void ct_check_truth(struct ct_rig *r, const char *what, const char *file, int line)
{
	for (size_t i = 0; i < ucd_ncounters(r->d); i++) {
		struct ucd_ctrinfo ci;
		struct ucm_truth t;
		int box;

		if (ucd_counter(r->d, i, &ci))
			continue;
		box = ucm_box_find(r->m, ci.socket, ci.box->type->name, ci.box->inst);
		if (box < 0 || ucm_truth(r->m, box, ci.ctr, &t)) {
			ct_fail(file, line, "%s: counter %zu: no ground truth for %s%u.%u", what, i,
				ci.box->type->name, ci.box->inst, ci.ctr);
			continue;
		}
		if (ci.total != t.last_read - t.first_read)
			ct_fail(file, line, "%s: counter %zu (%s%u.%u): driver %llu != truth %llu", what, i,
				ci.box->type->name, ci.box->inst, ci.ctr, (unsigned long long)ci.total,
				(unsigned long long)(t.last_read - t.first_read));
	}
	ct_no_strict(r, what, file, line);
}

static void strict_failures(struct ucm_model *m, const char *what, const char *from,
			    const char *file, int line)
{
	for (size_t i = 0; i < ucm_strict_count(m); i++) {
		char buf[512];

		ucm_strict_format(m, i, buf, sizeof(buf));
		ct_fail(file, line, "%s: strict record%s: %s", what, from, buf);
	}
}

void ct_no_strict(struct ct_rig *r, const char *what, const char *file, int line)
{
	strict_failures(r->m, what, " from the driver", file, line);
}

struct ucm_model *ct_model(const char *platform, unsigned sockets, int timed)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;

	if (!ucm_platform_find(platform))
		return NULL;
	ucm_config_init(&cfg, ucm_platform_find(platform));
	if (sockets)
		cfg.sockets = sockets;
	cfg.strict = 1;
	for (unsigned s = 0; s < UCM_NSPACES && !timed; s++)
		cfg.access_ps[s] = 0;
	if (ucm_create(&cfg, &m)) {
		ucm_destroy(m);
		return NULL;
	}
	return m;
}

void ct_model_no_strict(struct ucm_model *m, const char *what, const char *file, int line)
{
	strict_failures(m, what, "", file, line);
	ucm_strict_clear(m);
}

unsigned ct_same_registers(struct ucm_model *a, struct ucm_model *b, const char *what,
			   const char *file, int line)
{
	unsigned bad = 0;

	for (size_t i = 0; i < ucm_nregs(a); i++) {
		struct ucm_reginfo ri;
		uint64_t va = 0, vb = 0;

		if (ucm_peek_index(a, i, &va) || ucm_peek_index(b, i, &vb) || va != vb) {
			ucm_reginfo(a, i, &ri);
			if (bad++ < 5)
				ct_fail(file, line, "%s: s%u %s 0x%llx, 0x%llx", what, ri.socket, ri.name,
					(unsigned long long)va, (unsigned long long)vb);
		}
	}
	return bad;
}
