/* SPDX-License-Identifier: MIT */
/* av_disk.c -- diskutil: the boot container, a volume's facts, add and
 * delete.  Volumes are deleted by identifier only, never by name (names
 * are not unique in a container). */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "av.h"

static int
valid_container(const char *s)
{
	if (strncmp(s, "disk", 4) != 0 || s[4] == '\0')
		return 0;
	for (s += 4; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* The APFS container of the boot volume: `diskutil info -plist /`. */
int
av_container(const struct ns_host *h, const struct av_cfg *c, char *out,
	     size_t len)
{
	const char *argv[] = { c->diskutil, "info", "-plist", "/", NULL };
	struct av_run *r = malloc(sizeof(*r));
	int rc;

	if (r == NULL)
		return NS_E_SYSTEM;
	rc = av_tool(h, c, "looking up the boot container", argv, r);
	if (rc == NS_OK &&
	    av_plist_get(r->out, "APFSContainerReference", out, len) != 0 &&
	    av_plist_get(r->out, "ParentWholeDisk", out, len) != 0)
		out[0] = '\0';
	if (rc == NS_OK && !valid_container(out)) {
		av_refuse(h, "volume_failed", "the boot volume's APFS container "
			  "was not found in `diskutil info -plist /` (no "
			  "APFSContainerReference disk<N>); is / on APFS?");
		rc = NS_E_UNAVAILABLE;
	}
	free(r);
	return rc;
}

static int
not_found(const struct av_run *r)
{
	return strstr(r->out, "Could not find") != NULL ||
	       strstr(r->err, "Could not find") != NULL;
}

/* `diskutil info -plist <spec>`: *found 0 when diskutil says it has no
 * such disk; any other failure is refused. */
int
av_info(const struct ns_host *h, const struct av_cfg *c, const char *spec,
	struct av_vol *v, int *found)
{
	const char *argv[] = { c->diskutil, "info", "-plist", spec, NULL };
	struct av_run *r = malloc(sizeof(*r));
	int rc;

	memset(v, 0, sizeof(*v));
	*found = 0;
	if (r == NULL)
		return NS_E_SYSTEM;
	rc = av_exec(argv, c->timeout, r);
	if (rc == 0 && r->status != 0 && not_found(r)) {
		free(r);
		return NS_OK;
	}
	rc = av_check(h, "diskutil info", argv, rc, r);
	if (rc == NS_OK) {
		*found = 1;
		av_plist_get(r->out, "DeviceIdentifier", v->id, sizeof(v->id));
		av_plist_get(r->out, "VolumeName", v->name, sizeof(v->name));
		av_plist_get(r->out, "MountPoint", v->mount, sizeof(v->mount));
	}
	free(r);
	return rc;
}

/* `diskutil apfs addVolume <container> APFS <vol> -quota <bytes>B`;
 * the new identifier into id. */
int
av_add(const struct ns_host *h, const struct av_cfg *c,
       const char *container, const char *vol, uint64_t bytes, char *id,
       size_t len)
{
	char quota[32];
	const char *argv[] = { c->diskutil, "apfs", "addVolume", container,
			       "APFS", vol, "-quota", quota, NULL };
	struct av_run *r = malloc(sizeof(*r));
	int rc;

	if (r == NULL)
		return NS_E_SYSTEM;
	snprintf(quota, sizeof(quota), "%" PRIu64 "B", bytes);
	rc = av_tool(h, c, "creating the volume", argv, r);
	if (rc == NS_OK && av_created_id(r->out, id, len) != 0) {
		av_refuse(h, "volume_failed", "diskutil apfs addVolume did "
			  "not say \"Created new APFS Volume disk<N>s<M>\"; "
			  "check `diskutil apfs list` for %s", vol);
		rc = NS_E_SYSTEM;
	}
	free(r);
	return rc;
}

/* `diskutil unmount force <id>` (its failure is only a note: the delete
 * says whether the volume is gone), then `diskutil apfs deleteVolume`. */
int
av_delete(const struct ns_host *h, const struct av_cfg *c, const char *id)
{
	const char *um[] = { c->diskutil, "unmount", "force", id, NULL };
	const char *del[] = { c->diskutil, "apfs", "deleteVolume", id, NULL };
	struct av_run *r = malloc(sizeof(*r));
	char note[700];
	int rc;

	if (r == NULL)
		return NS_E_SYSTEM;
	if (av_exec(um, c->timeout, r) != 0 || r->status != 0) {
		snprintf(note, sizeof(note), "diskutil unmount force %s did "
			 "not succeed (%s); deleting anyway", id,
			 r->err[0] ? r->err : r->why);
		h->note(h->cookie, note);
	}
	rc = av_tool(h, c, "deleting the volume", del, r);
	free(r);
	return rc;
}
