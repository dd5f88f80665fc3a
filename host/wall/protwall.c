/* SPDX-License-Identifier: MIT */
/* protwall.c -- rule 5a between the policy and the wall (protwall.h). */
#include <stdlib.h>
#include <string.h>

#include "wall/protwall.h"

#include "base/reasons.h"
#include "base/remedy.h"
#include "os/os.h"
#include "wall/explain.h"

int
wall_protect_refused(const struct wallctx *w, const struct policy *pol,
		     const struct cmdline *line, struct refusals *r)
{
	if (pol->prot.n == 0 || wall_has_feature(w, NS_WALL_PROTECT))
		return 0;
	for (size_t i = 0; i < pol->prot.n; i++) {
		const char *p = pol->prot.v[i].path;
		struct cmdfix fx = { NULL, NULL, p, "--unprotect", 0 };

		if (remedy_refuse(r, REASON_PROTECT_UNSUPPORTED,
				  REMEDY_IN_TEXT, line, &fx, "the wall %s "
				  "cannot keep %s read-only inside a --write "
				  "(no NS_WALL_PROTECT, ABI 1.4): use a wall "
				  "that can, or lift it knowingly with "
				  "--unprotect %s", w->mod.ops.name, p, p) < 0)
			return -1;
	}
	return 1;
}

int
wall_protect_place(const struct strv *protect, const char *place,
		   const struct cmdline *line, struct refusals *r)
{
	char *real = os_real_path(place);
	size_t n0 = r->n;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < protect->n; i++) {
		const char *t = protect->v[i];
		char *a = os_is_absolute(t) ? path_abs(t) : NULL;
		struct cmdfix fx = { "--protect", t, NULL, NULL, 0 };

		if (a != NULL && ((place != NULL && path_name_inside(a, place)) ||
				  (real != NULL && path_name_inside(a, real))))
			rc = remedy_refuse_lead(r, REASON_BAD_PROTECT,
						REMEDY_IN_TEXT, line, &fx,
						"; leave it out; run: ",
						"--protect %s is inside the "
						"place %s, which is empty when "
						"the command starts: a --protect "
						"must be under a --write outside "
						"the place", t, place) < 0 ? -1 : 0;
		free(a);
	}
	free(real);
	return rc < 0 ? -1 : r->n > n0;
}

void
wall_protect_input(struct policy_input *in, const struct strv *protect,
		   const struct strv *unprotect)
{
	for (size_t i = 0; i < protect->n; i++)
		strv_push(&in->protect, protect->v[i]);
	for (size_t i = 0; i < unprotect->n; i++)
		strv_push(&in->unprotect, unprotect->v[i]);
}

void
wall_protect_note(const struct policy *pol, int explain,
		  void (*note)(const char *text))
{
	struct sbuf b = {0};

	if (!explain || pol->prot.n == 0)
		return;
	sbuf_add(&b, "protected (readable, not writable whatever --write "
		 "covers them; a write there fails with EROFS, which the wall "
		 "does not count as its denial): ");
	for (size_t i = 0; i < pol->prot.n; i++)
		sbuf_addf(&b, "%s%s", i ? " " : "", pol->prot.v[i].path);
	if (!sbuf_failed(&b))
		note(b.s);
	sbuf_free(&b);
}
