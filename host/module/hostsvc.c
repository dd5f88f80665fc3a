/* SPDX-License-Identifier: MIT */
/* hostsvc.c -- the services the host passes to modules (see hostsvc.h). */
#include "module/hostsvc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"

static void
svc_note(void *cookie, const char *text)
{
	struct hostsvc *hs = cookie;

	if (text == NULL)
		text = "";
	if (hs->notes != NULL) {
		strv_push(hs->notes, text);
		return;
	}
	if (hs->err == NULL)
		return;
	out_note_to(hs->err, hs->prefix ? hs->prefix : "SANDBOX", text);
}

/* A module's reason must look like a token; it lives in the module's
 * rodata, which stays mapped (modules are never closed after a call). */
static const char *
token(const char *reason)
{
	size_t n;

	if (reason == NULL)
		return REASON_SANDBOX_FAILED;
	n = strspn(reason, "abcdefghijklmnopqrstuvwxyz_");
	if (n == 0 || n > 32 || reason[n] != '\0')
		return REASON_SANDBOX_FAILED;
	return reason;
}

/* The ABI gives a module's refusal a text only, which "says what is wrong
 * and what would fix it"; the host cannot ask which part is the remedy.
 * A text that names one in the tool's own words (docs/SPEC-SANDBOX.md
 * section 3) is taken whole; any other gets the verb's remedy appended. */
static const char *
module_remedy(const char *t)
{
	static const char *const mark[] = { "run:", "wants ", "remedy=",
		" -h", "--help", "pass --", "name --", "nova-sandbox help",
		NULL };

	for (size_t i = 0; mark[i]; i++)
		if (strstr(t, mark[i]) != NULL)
			return REMEDY_IN_TEXT;
	return NULL;
}

/* The module refusals a flag of the caller's removes: the token, and
 * the fix of the caller's line (base/remedy.h).  The module's text stays
 * its own; the host adds the line after it. */
static const struct {
	const char *token;
	struct cmdfix fix;
	const char *lead;
	const char *typed; /* only when the line holds fix.flag with this
			      value (NULL: always) */
} module_fixes[] = {
	/* the kernel cannot keep the promise: the line without it runs
	 * with net=nopromise, which the OK line then says */
	{ "net_unenforceable", { "--net-deny", NULL, NULL, NULL, FIX_SWITCH },
	  "; without the promise (net=nopromise), run: ", NULL },
	/* a place's name taken or not usable there */
	{ "volume_exists", { "--name", NULL, "<name>", NULL, 0 }, NULL, NULL },
	{ "no_name", { "--name", NULL, "<name>", NULL, 0 }, NULL, NULL },
	/* a place's quota that comes to zero */
	{ "bad_size", { "--size", NULL, "<n>m", NULL, 0 }, NULL, NULL },
	/* a cap or a directory the module cannot keep (ABI 1.3): the line
	 * without the flag runs without it */
	{ "bad_cpu", { "--cpu", NULL, NULL, NULL, 0 },
	  "; without the CPU cap, run: ", NULL },
	{ "bad_scratch", { "--scratch", NULL, NULL, NULL, 0 },
	  "; in the temp directory, run: ", NULL },
	/* --acl caller and a --write the command could not write: the wall
	 * labels it for the run without it */
	{ "bad_write", { "--acl", "caller", NULL, NULL, 0 },
	  "; with the wall's own labels, run: ", "caller" },
	/* rule 5a: no user namespace for the protection: the line that
	 * lifts it, each protected path the module names in its text */
	{ "protect_unavailable", { NULL, NULL, "<path>", "--unprotect", 0 },
	  "; without that protection, knowingly, run: ", NULL },
};

/* Does the caller's line hold `flag value` or `flag=value` before "--"? */
static int
line_holds(const struct cmdline *c, const char *flag, const char *value)
{
	size_t fl = strlen(flag);

	for (size_t i = 0; i < c->n && strcmp(c->args[i], "--") != 0; i++) {
		const char *w = c->args[i];

		if (strcmp(w, flag) == 0 && i + 1 < c->n &&
		    strcmp(c->args[i + 1], value) == 0)
			return 1;
		if (strncmp(w, flag, fl) == 0 && w[fl] == '=' &&
		    strcmp(w + fl + 1, value) == 0)
			return 1;
	}
	return 0;
}

/* After the module's refusal r->v[at]: the caller's line fixed, or why
 * no line can be given. */
static void
module_line(const struct hostsvc *hs, const char *tok, size_t at)
{
	struct refusals *r = hs->refusals;
	struct sbuf s = {0};

	for (size_t i = 0; i < sizeof(module_fixes) / sizeof(module_fixes[0]);
	     i++)
		if (strcmp(module_fixes[i].token, tok) == 0 &&
		    (module_fixes[i].typed == NULL ||
		     line_holds(hs->line, module_fixes[i].fix.flag,
				module_fixes[i].typed))) {
			remedy_append(r, at, hs->line, &module_fixes[i].fix,
				      module_fixes[i].lead);
			return;
		}
	if (sbuf_addf(&s, "%s; no fixed command line can be given: no flag "
		      "of the command line removes this cause",
		      r->v[at].text) < 0) {
		refusals_oom(r);
		return;
	}
	free(r->v[at].text);
	r->v[at].text = s.s;
}

static void
svc_refuse(void *cookie, const char *reason, const char *text)
{
	struct hostsvc *hs = cookie;
	size_t at;

	if (text == NULL)
		text = "";
	if (hs->refusals == NULL)
		return;
	at = hs->refusals->n;
	if (refusals_addr(hs->refusals, token(reason), module_remedy(text),
			  "%s", text) < 0 || hs->refusals->n != at + 1)
		return;
	if (hs->line != NULL && hs->line->args != NULL)
		module_line(hs, hs->refusals->v[at].reason, at);
}

static void
svc_text(void *cookie, const char *line)
{
	struct hostsvc *hs = cookie;

	if (hs->text == NULL)
		return;
	sbuf_add(hs->text, line ? line : "");
	sbuf_add(hs->text, "\n");
}

static const char *
svc_option(void *cookie, const char *key)
{
	struct hostsvc *hs = cookie;

	return config_option(hs->cfg, hs->stem, key);
}

/* ABI 1.2: taken only while the host is in finish() (hs->denials set). */
static void
svc_denial(void *cookie, const struct ns_denial *d)
{
	struct hostsvc *hs = cookie;
	uint32_t size;

	if (hs->denials == NULL || d == NULL)
		return;
	memcpy(&size, d, sizeof(size));
	if (size < offsetof(struct ns_denial, count) + sizeof(d->count))
		return;
	(void)denials_add(hs->denials, d->op, d->path, d->count);
}

void
hostsvc_init(struct hostsvc *hs)
{
	memset(&hs->host, 0, sizeof(hs->host));
	hs->host.struct_size = sizeof(hs->host);
	hs->host.abi_major = NS_BACKEND_ABI_MAJOR;
	hs->host.abi_minor = NS_BACKEND_ABI_MINOR;
	hs->host.cookie = hs;
	hs->host.note = svc_note;
	hs->host.refuse = svc_refuse;
	hs->host.text = svc_text;
	hs->host.option = svc_option;
	hs->host.denial = svc_denial;
}
