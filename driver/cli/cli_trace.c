/*
 * cli_trace.c - `uncore trace gen|convert|info`: make event traces from the
 * generators, convert them between text and binary, and summarise them.
 * Output files appear only when complete.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_cmd.h"
#include "cli_opts.h"
#include "cli_progress.h"
#include "cli_util.h"
#include "ucm.h"
#include "uct.h"
#include "uct_gen.h"
#include "uct_trace.h"

/* The exit status of a reader's failure: a malformed or truncated trace is
 * bad input (2), as stat --trace reports it; a read error or no memory is a
 * run-time error (1). */
static int bad_input(int rc)
{
	return rc == -EIO || rc == -ENOMEM || rc == -ENOENT || rc == -EACCES || rc == -EISDIR ? 1 : EXIT_USAGE;
}

/* The progress line of a long generation (cli_progress.c). */
static void gen_progress_line(const struct uct_gen_opts *g, double done)
{
	cli_progress_line("[trace gen] %.3f of %.3f s generated (%.0f%%)", done * g->seconds, g->seconds,
			  100 * done);
}

static void gen_progress(void *ctx, double done)
{
	if (cli_progress_due())
		gen_progress_line(ctx, done);
}

static int trace_gen(const struct opts *o)
{
	const struct ucm_platform *p = ucm_platform_find(o->platform ? o->platform : "skl");
	struct uct_gen_opts g = o->gen;
	struct uct_hdr h;
	struct uct_writer *w;
	char err[768];
	int rc;

	if (!p)
		return cli_fail(EXIT_USAGE, "--platform: unknown platform '%s'", o->platform);
	if (!o->out)
		return cli_fail(EXIT_USAGE, "trace gen: -o FILE is required");
	memset(&h, 0, sizeof(h));
	h.plat = p;
	/* the platform's sockets (two on snbep) unless --sockets says */
	h.sockets = o->sockets ? o->sockets : p->sockets_default ? p->sockets_default : 1;
	if (h.sockets > p->max_sockets)
		return cli_fail(EXIT_USAGE, "--sockets %u: %s has at most %u", h.sockets, p->name,
				p->max_sockets);
	h.seed = g.seed;
	if (o->uclk_mhz)
		h.clock_hz[0] = (uint64_t)(o->uclk_mhz * 1e6);
	if (o->ncbo) {
		if (!p->counted || o->ncbo < p->counted->ninst_min || o->ncbo > p->counted->ninst_max)
			return cli_fail(EXIT_USAGE, "--ncbo: %u out of range", o->ncbo);
		h.ninst[ucm_boxtype_index(p, p->counted)] = o->ncbo;
	}
	g.kind = o->arg;
	if ((rc = uct_writer_open(o->out, o->binary, &h, &w, err, sizeof(err))))
		return cli_fail(1, "-o %s", err);
	cli_progress_begin();
	uct_gen_on_progress(gen_progress, &g);
	rc = uct_generate_until(&h, &g, w, cli_stop_flag(), err, sizeof(err));
	uct_gen_on_progress(NULL, NULL);
	if (cli_progress_drawn() && !rc)
		gen_progress_line(&g, 1);
	cli_progress_end();
	if (rc) {
		char set[256];

		uct_writer_abort(w); /* removes the partial file */
		if (rc == -EINTR)
			return cli_signal_exit("trace gen", "nothing was written");
		/* name the options the refused request came from */
		if (rc == -EFBIG && strcmp(o->arg, "burst"))
			snprintf(set, sizeof(set), "--duration %g --period %llu", g.seconds,
				 (unsigned long long)(g.period ? g.period : 300000));
		else if (rc == -EFBIG)
			snprintf(set, sizeof(set), "--duration %g --burst-us %g --duty %g", g.seconds,
				 (double)g.burst_ns / 1000, g.duty);
		else
			cli_gen_settings(o, set, sizeof(set));
		return cli_fail(rc == -EIO ? 1 : EXIT_USAGE, "trace gen %s%s%s: %s", o->arg, *set ? " " : "", set, err);
	}
	if ((rc = uct_writer_commit(w))) {
		rc = cli_fail(1, "%s", uct_writer_error(w));
		uct_writer_abort(w); /* a failed commit leaves the writer to free */
		return rc;
	}
	return 0;
}

static int trace_convert(const struct opts *o)
{
	struct uct_reader *r;
	struct uct_writer *w;
	struct uct_seg *seg;
	char err[768];
	int rc, binary;

	if (!o->out)
		return cli_fail(EXIT_USAGE, "trace convert: -o FILE is required");
	/* a malformed trace is bad input (2), as for stat --trace */
	if ((rc = uct_open(o->arg, &r, err, sizeof(err))))
		return cli_interrupted() ? cli_signal_exit("trace convert", "nothing was written")
					 : cli_fail(bad_input(rc), "%s", err);
	/* binary: the vector form with chunks unless --record-form or
	 * --no-chunks says */
	binary = o->binary ? o->binary : o->text ? UCT_TEXT : uct_is_binary(r) ? UCT_TEXT : UCT_BINARY;
	seg = malloc(sizeof(*seg));
	if (!seg || (rc = uct_writer_open(o->out, binary, uct_header(r), &w, err, sizeof(err)))) {
		free(seg);
		uct_close(r);
		return cli_fail(1, "%s%s", seg ? "-o " : "", seg ? err : "out of memory");
	}
	while ((rc = uct_next(r, seg)) > 0) {
		if ((rc = uct_write(w, seg)))
			break;
		if (cli_interrupted()) {
			uct_writer_abort(w); /* removes the partial file */
			free(seg);
			uct_close(r);
			return cli_signal_exit("trace convert", "nothing was written");
		}
	}
	if (rc < 0 && cli_interrupted()) {
		/* a read the signal interrupted is no error of the file */
		rc = cli_signal_exit("trace convert", "nothing was written");
		uct_writer_abort(w);
	} else if (rc < 0) {
		int bad = uct_reader_error(r)[0] && bad_input(rc) == EXIT_USAGE;

		rc = cli_fail(bad ? EXIT_USAGE : 1, "%s", bad ? uct_reader_error(r) : uct_writer_error(w));
		uct_writer_abort(w);
	} else if ((rc = uct_writer_commit(w))) {
		rc = cli_fail(1, "%s", uct_writer_error(w));
		uct_writer_abort(w);
	}
	free(seg);
	uct_close(r);
	return rc;
}

/* Header, length and what every sub-event is fed, per instance summed. */
static int trace_info(const struct opts *o, FILE *f)
{
	struct uct_reader *r;
	const struct uct_hdr *h;
	const struct ucm_platform *p;
	struct uct_seg *seg = malloc(sizeof(*seg));
	uint64_t nseg = 0, end = 0, hz;
	uint64_t (*fed)[1024] = calloc(UCM_MAXBT, sizeof(*fed));
	char err[768], name[96];
	int rc, vid, full;

	if (!seg || !fed) {
		free(seg);
		free(fed);
		return cli_fail(1, "out of memory");
	}
	if ((rc = uct_open(o->arg, &r, err, sizeof(err)))) {
		free(seg);
		free(fed);
		return cli_interrupted() ? cli_signal_exit("trace info", "it read part of the trace")
					 : cli_fail(bad_input(rc), "%s", err);
	}
	h = uct_header(r);
	p = h->plat;
	while ((rc = uct_next_vec(r, seg, 1, &vid, &full)) > 0) {
		if (cli_interrupted()) {
			rc = cli_signal_exit("trace info", "it read part of the trace");
			goto out;
		}
		nseg++;
		end = seg->start + seg->ncycles;
		for (unsigned i = 0; i < seg->nin; i++) {
			const struct uct_in *in = &seg->in[i];
			const struct ucm_boxtype *bt = NULL;
			unsigned ni;

			for (unsigned k = 0; k < p->nboxes && !bt; k++)
				if (ucm_boxtype_index(p, p->boxes[k].type) == in->bt)
					bt = p->boxes[k].type;
			ni = in->inst >= 0 ? 1 : h->ninst[in->bt] ? h->ninst[in->bt] : bt->ninst_default;
			/* in the box's own clock: N reference cycles are fewer dclk */
			if (in->sub < 1024)
				fed[in->bt][in->sub] += (uint64_t)in->inc * ni *
					uct_domain_cycles(h, bt->clock, seg->start, seg->ncycles);
		}
	}
	if (rc < 0) {
		rc = cli_interrupted() ? cli_signal_exit("trace info", "it read part of the trace")
				       : cli_fail(bad_input(rc), "%s", uct_reader_error(r));
		goto out;
	}
	hz = h->clock_hz[0] ? h->clock_hz[0] : p->clocks[0].hz_default;
	fprintf(f, "file       %s (%s)\nplatform   %s\nsockets    %u\nclock      %s %" PRIu64 " Hz\n"
		   "seed       %" PRIu64 "\nsegments   %" PRIu64 "\ncycles     %" PRIu64 "\nseconds    %.9f\n"
		   "vectors    %u%s\n",
		o->arg, uct_is_binary(r) ? !uct_is_vector_form(r) ? "binary, record form"
				  : uct_is_chunked(r) ? uct_sleep_as_changes(r)
							? "binary, vector form with chunks and sleep changes"
							: "binary, vector form with chunks"
				  : uct_sleep_as_changes(r) ? "binary, vector form with sleep changes"
				  : "binary, vector form"
				  : "text",
		p->name, h->sockets, p->clocks[0].name, hz, h->seed, nseg, end, (double)end / (double)hz,
		uct_vectors(r), uct_vectors(r) >= UCT_MAXVEC ? " (the dictionary's limit: more are not numbered)" : "");
	if (uct_is_chunked(r))
		fprintf(f, "chunks     %u%s\n", uct_chunks(r),
			uct_chunks(r) >= UCT_MAXCHUNK ? " (the dictionary's limit: more are not numbered)" : "");
	for (unsigned k = 0; k < p->nboxes; k++) {
		const struct ucm_boxtype *bt = p->boxes[k].type;
		int bi = ucm_boxtype_index(p, bt);

		if (p->boxes[k].inst)
			continue;
		for (unsigned s = 0; s < ucm_subev_count(bt) && s < 1024; s++)
			if (fed[bi][s])
				fprintf(f, "fed        %s.%s %" PRIu64 "\n", bt->name,
					ucm_subev_name(bt, s, name, sizeof(name)), fed[bi][s]);
	}
	rc = 0;
out:
	uct_close(r);
	free(seg);
	free(fed);
	return rc;
}

int cmd_trace(const struct opts *o)
{
	struct out out;
	int rc;

	if (!strcmp(o->sub, "gen"))
		return trace_gen(o);
	if (!strcmp(o->sub, "convert"))
		return trace_convert(o);
	if ((rc = out_open(&out, o->out)))
		return rc;
	rc = trace_info(o, out.f);
	return out_close(&out, rc == 0) && !rc ? 1 : rc;
}
