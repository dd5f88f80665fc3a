/* SPDX-License-Identifier: MIT */
/* av_place.c -- the place role: look, create, used, destroy, list,
 * holders, proc_start.  No enter: the volume is visible to everyone and
 * create() makes it. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "av.h"
#include "common/nk_module.h"

static const char *const av_dirs[] = { "work", "home", "tmp" };

/* "nova-<name>" into vol; -1 (refused) for a name the host should never
 * have passed. */
static int
vol_name(const struct ns_host *h, const char *name, char *vol, size_t len)
{
	if (!av_valid_name(name)) {
		av_refuse(h, "no_name", "place name \"%s\" is not 1-32 of "
			  "[A-Za-z0-9._-] starting with a letter or digit",
			  name);
		return -1;
	}
	snprintf(vol, len, AV_PREFIX "%s", name);
	return 0;
}

/* Does a volume (or anything at <volumes>/nova-<name>) exist? */
static int
exists_now(const struct ns_host *h, const struct av_cfg *c, const char *vol,
	   int *exists)
{
	char path[640];
	struct stat st;
	struct av_vol v;
	int found, rc;

	snprintf(path, sizeof(path), "%s/%s", c->volumes, vol);
	*exists = lstat(path, &st) == 0;
	if (*exists)
		return NS_OK;
	rc = av_info(h, c, vol, &v, &found);
	*exists = rc == NS_OK && found && strcmp(v.name, vol) == 0;
	return rc;
}

static int
av_look(const struct ns_host *h, const char *name, int *exists)
{
	struct av_cfg c;
	char vol[64];

	*exists = 0;
	if (av_cfg_load(h, &c) != NS_OK)
		return NS_E_UNAVAILABLE;
	if (vol_name(h, name, vol, sizeof(vol)) != 0)
		return NS_E_REFUSED;
	return exists_now(h, &c, vol, exists);
}

static void
set_remedy(struct ns_place *p)
{
	snprintf(p->remedy, sizeof(p->remedy), "diskutil apfs deleteVolume %s",
		 p->id);
}

/* The new volume's mount point, read back (never assumed). */
static int
find_mount(const struct ns_host *h, const struct av_cfg *c, const char *vol,
	   struct ns_place *out)
{
	struct av_vol v;
	int found, rc = av_info(h, c, out->id, &v, &found);

	if (rc != NS_OK)
		return rc;
	if (!found || strcmp(v.name, vol) != 0 || !av_under_root(c, v.mount)) {
		av_refuse(h, "volume_failed", "the new volume %s (%s) is not "
			  "mounted as %s/%s (MountPoint \"%s\"); a volume of "
			  "that name may be mounted already", out->id, vol,
			  c->volumes, vol, found ? v.mount : "");
		return NS_E_SYSTEM;
	}
	snprintf(out->root, sizeof(out->root), "%s", v.mount);
	return NS_OK;
}

/* work/ home/ tmp/ (0700) and the owner marker, under the open root. */
static int
furnish(const struct ns_host *h, const struct av_cfg *c, const char *root)
{
	char start[128] = "-";
	int fd, rc = NS_OK;

	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		av_refuse(h, "volume_failed", "cannot open the new volume %s: "
			  "%s", root, strerror(errno));
		return NS_E_SYSTEM;
	}
	for (size_t i = 0; rc == NS_OK && i < 3; i++)
		if (mkdirat(fd, av_dirs[i], 0700) != 0) {
			av_refuse(h, "volume_failed", "cannot make %s/%s: %s",
				  root, av_dirs[i], strerror(errno));
			rc = NS_E_SYSTEM;
		}
	if (rc == NS_OK &&
	    av_proc_start(NULL, c, (long)getpid(), start, sizeof(start)) != NS_OK)
		snprintf(start, sizeof(start), "-");
	if (rc == NS_OK)
		rc = av_marker_write(h, fd, (long)getpid(), start);
	close(fd);
	return rc;
}

/* Undo a half-made volume; when that fails too, say the one command. */
static void
undo(const struct ns_host *h, const struct av_cfg *c, struct ns_place *out)
{
	if (av_delete(h, c, out->id) != NS_OK)
		av_refuse(h, "volume_failed", "the half-made volume %s could "
			  "not be removed; remove it with: %s", out->id,
			  out->remedy);
}

static int
make_volume(const struct ns_host *h, const struct av_cfg *c,
	    const char *vol, uint64_t size, struct ns_place *out)
{
	char cont[64];
	int exists, rc;

	rc = av_container(h, c, cont, sizeof(cont));
	if (rc == NS_OK)
		rc = exists_now(h, c, vol, &exists);
	if (rc == NS_OK && exists) {
		av_refuse(h, "volume_exists", "a volume named %s already "
			  "exists; pick another --name or remove it (nova-sandbox "
			  "reap)", vol);
		return NS_E_REFUSED;
	}
	if (rc == NS_OK)
		rc = av_add(h, c, cont, vol, size, out->id, sizeof(out->id));
	if (rc != NS_OK)
		return rc;
	set_remedy(out);
	rc = find_mount(h, c, vol, out);
	if (rc == NS_OK)
		rc = furnish(h, c, out->root);
	if (rc != NS_OK)
		undo(h, c, out);
	return rc;
}

static int
av_create(const struct ns_host *h, const struct ns_place_req *req,
	  struct ns_place *out)
{
	struct av_cfg c;
	char vol[64];
	int lock, rc;

	if (av_cfg_load(h, &c) != NS_OK)
		return NS_E_UNAVAILABLE;
	if (vol_name(h, req->name, vol, sizeof(vol)) != 0)
		return NS_E_REFUSED;
	if (req->size_bytes == 0) {
		av_refuse(h, "bad_size", "the volume's quota must be more than "
			  "0 bytes; give --size <8g>");
		return NS_E_REFUSED;
	}
	lock = av_lock(h, &c);
	if (lock < 0)
		return NS_E_SYSTEM;
	rc = make_volume(h, &c, vol, req->size_bytes, out);
	close(lock);
	if (rc != NS_OK) {
		out->root[0] = out->id[0] = out->remedy[0] = '\0';
		return rc;
	}
	out->state = NULL;
	if (out->struct_size >= NS_PLACE_SIZE_1_1)
		out->hidden[0] = '\0';
	return NS_OK;
}

/* Bytes the volume holds: diskutil's CapacityInUse for the identifier. */
static int
av_used(const struct ns_host *h, const struct ns_place *place,
	uint64_t *bytes)
{
	const char *argv[4 + 1];
	struct av_cfg c;
	struct av_run *r;
	char num[32];
	int rc;

	*bytes = 0;
	if (av_cfg_load(h, &c) != NS_OK)
		return NS_E_UNAVAILABLE;
	if (!av_valid_id(place->id)) {
		av_refuse(h, "volume_failed", "\"%s\" is not a volume "
			  "identifier (disk<N>s<M>)", place->id);
		return NS_E_INTERNAL;
	}
	r = malloc(sizeof(*r));
	if (r == NULL)
		return NS_E_SYSTEM;
	argv[0] = c.diskutil, argv[1] = "info", argv[2] = "-plist";
	argv[3] = place->id, argv[4] = NULL;
	rc = av_tool(h, &c, "measuring the volume", argv, r);
	if (rc == NS_OK && av_plist_get(r->out, "CapacityInUse", num,
					sizeof(num)) == 0)
		*bytes = strtoull(num, NULL, 10);
	free(r);
	return rc;
}

/* The identifier still names our volume at place->root: 1 yes, 0 gone,
 * -1 refused (it names something else now, or diskutil failed). */
static int
still_ours(const struct ns_host *h, const struct av_cfg *c,
	   const struct ns_place *p)
{
	struct av_vol v;
	int found;

	if (av_info(h, c, p->id, &v, &found) != NS_OK)
		return -1;
	if (!found)
		return 0;
	if (strncmp(v.name, AV_PREFIX, strlen(AV_PREFIX)) != 0 ||
	    strcmp(v.mount, p->root) != 0) {
		av_refuse(h, "volume_failed", "%s is now \"%s\" mounted at "
			  "\"%s\", not %s; nothing deleted", p->id, v.name,
			  v.mount, p->root);
		return -1;
	}
	return 1;
}

/* A failing lsof does not stop a delete (unmount force follows): what it
 * says is passed on as a note, not a refusal. */
static void
refuse_as_note(void *cookie, const char *reason, const char *text)
{
	const struct ns_host *h = cookie;
	char note[1100];

	snprintf(note, sizeof(note), "%s (%s); deleting anyway", text, reason);
	h->note(h->cookie, note);
}

/* Find and kill what holds the mount. */
static void
clear_holders(const struct ns_host *h, const struct av_cfg *c,
	      const char *root)
{
	struct ns_host quiet = *h;
	int64_t pids[AV_HOLDERS_MAX];
	size_t n = 0;

	quiet.cookie = (void *)h;
	quiet.refuse = refuse_as_note;
	quiet.note = h->note;
	if (av_holders(&quiet, c, root, pids, AV_HOLDERS_MAX, &n) != NS_OK)
		return;
	if (n > AV_HOLDERS_MAX)
		n = AV_HOLDERS_MAX;
	av_kill_all(pids, n);
}

static int
check_place(const struct ns_host *h, const struct av_cfg *c,
	    const struct ns_place *p)
{
	if (av_valid_id(p->id) && av_under_root(c, p->root))
		return 0;
	av_refuse(h, "volume_failed", "refusing to delete id=\"%s\" root="
		  "\"%s\": not a volume identifier under %s", p->id, p->root,
		  c->volumes);
	return -1;
}

static int
av_destroy(const struct ns_host *h, struct ns_place *place)
{
	struct av_cfg c;
	int ours;

	if (av_cfg_load(h, &c) != NS_OK)
		return NS_E_UNAVAILABLE;
	if (check_place(h, &c, place) != 0)
		return NS_E_REFUSED;
	set_remedy(place);
	ours = still_ours(h, &c, place);
	if (ours <= 0)
		return ours == 0 ? NS_OK : NS_E_SYSTEM;
	clear_holders(h, &c, place->root);
	if (av_delete(h, &c, place->id) == NS_OK)
		return NS_OK;
	av_refuse(h, "volume_failed", "the volume %s (%s) is still there; "
		  "remove it with: %s", place->id, place->root, place->remedy);
	return NS_E_SYSTEM;
}

static int
av_holders_op(const struct ns_host *h, const struct ns_place *place,
	      int64_t *pids, size_t cap, size_t *n)
{
	struct av_cfg c;

	*n = 0;
	if (av_cfg_load(h, &c) != NS_OK)
		return NS_E_UNAVAILABLE;
	if (!av_under_root(&c, place->root)) {
		av_refuse(h, "volume_failed", "\"%s\" is not a volume under %s",
			  place->root, c.volumes);
		return NS_E_REFUSED;
	}
	return av_holders(h, &c, place->root, pids, cap, n);
}

static int
av_proc_start_op(const struct ns_host *h, int64_t pid, char *out,
		 size_t outlen)
{
	struct av_cfg c;

	if (av_cfg_load(h, &c) != NS_OK)
		return NS_E_UNAVAILABLE;
	return av_proc_start(h, &c, (long)pid, out, outlen);
}

const struct ns_place_ops av_place_ops =
	NK_PLACE_OPS(av_look, av_create, av_used, av_destroy, av_list,
		     .enter = NULL, .holders = av_holders_op,
		     .proc_start = av_proc_start_op);
