/* SPDX-License-Identifier: MIT */
/* ll_socks.c -- the agent and bus sockets still reachable below Landlock
 * ABI 9 (ll_socks.h).  One look at the kernel's unix socket table per
 * process (sock_diag, else /proc/net/unix); the path of each listening
 * pathname socket is matched against a table; whether the command could
 * connect is asked with fstatat/faccessat, never by opening or
 * connecting. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "banned.h"
#include "ll_socks.h"
#include "ll_table.h"

#define SO_ACCEPTCON_FLAG 0x10000UL /* __SO_ACCEPTCON: listening */
#define TCP_LISTEN_STATE 10         /* a listening unix socket's sk_state */
#define CHUNK 65536
#define RESOLVE_UNIX_ABI 9

/* What acts as the user (or as root for the user) behind a socket: its
 * directory (NULL: any) and base name, fnmatch(3) patterns.  The reasons
 * are in SPEC rule 9. */
static const struct {
	const char *dir;
	const char *base;
} kinds[] = {
	{ "*/ssh-*", "agent.*" },        /* OpenSSH ssh-agent */
	{ NULL, "*agent*" },             /* ssh-agent.socket, S.gpg-agent* */
	{ NULL, "S.scdaemon" },          /* gpg's smartcard daemon */
	{ "*/keyring", "*" },            /* gnome-keyring control, ssh */
	{ "*/gcr", "*" },                /* gcr's ssh agent */
	{ NULL, "bus" },                 /* $XDG_RUNTIME_DIR/bus */
	{ "*/at-spi*", "bus*" },         /* accessibility bus */
	{ NULL, "system_bus_socket" },   /* the system bus */
	{ NULL, "dbus-*" },              /* /tmp/dbus-XXXX session bus */
	{ "*/systemd", "private" },      /* a systemd manager */
	{ NULL, "docker.sock" },
	{ NULL, "podman.sock" },
	{ NULL, "containerd.sock" },
	{ "*/pulse", "native" },         /* PulseAudio (the microphone) */
	{ NULL, "pipewire-*" },
	{ NULL, "wayland-*" },
	{ "*/.X11-unix", "X*" },         /* an X server: keystrokes */
	{ "*/tmux-*", "*" },             /* tmux: send-keys to any pane */
	{ "*/screen/S-*", "*" },
	{ NULL, "*kcm-socket" },         /* Kerberos KCM credential cache */
	{ NULL, "pcscd.comm" },          /* smartcards */
	{ NULL, "vscode-*.sock" },
	{ NULL, "nvim*" },
	{ "*/emacs*", "server" },
	{ NULL, "sway-ipc.*" },          /* compositors: exec anything */
	{ "*/i3", "ipc-socket.*" },
	{ "*/hypr/*", ".socket*.sock" },
	{ NULL, "niri.*.sock" },
	{ "*/wezterm", "*" },            /* terminals: spawn panes */
	{ NULL, "Alacritty-*.sock" },
	{ "*/zellij/*", "*" },
	{ NULL, "buildkitd.sock" },      /* container builders */
};

static struct ll_socks g_socks;

int
ll_socks_kind(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[LL_SOCK_PATH];
	size_t dn;

	if (path[0] != '/' || slash == NULL || slash[1] == '\0')
		return 0;
	dn = (size_t)(slash - path);
	if (dn >= sizeof(dir))
		return 0;
	memcpy(dir, path, dn);
	dir[dn] = '\0';
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((kinds[i].dir == NULL || fnmatch(kinds[i].dir, dir, 0) == 0) &&
		    fnmatch(kinds[i].base, slash + 1, 0) == 0)
			return 1;
	return 0;
}

/* A hex or decimal field at *p followed by a space; advances *p. */
static int
field(const char **p, const char *end, int base, unsigned long *out)
{
	char *e;

	while (*p < end && **p == ' ')
		(*p)++;
	if (*p >= end)
		return -1;
	errno = 0;
	*out = strtoul(*p, &e, base);
	if (e == *p || e > end || errno != 0)
		return -1;
	*p = e;
	return 0;
}

/* "<addr>: <ref> <proto> <flags> <type> <st> <inode>[ <path>]"; the
 * numbers are read from a NUL-terminated copy of the fields, so strtoul
 * never runs past the line. */
int
ll_socks_line(const char *line, size_t len, const char **path, size_t *plen)
{
	const char *colon = memchr(line, ':', len), *p, *end;
	char head[128];
	unsigned long v[6];
	size_t hn;

	if (colon == NULL)
		return 0;
	hn = len - (size_t)(colon + 1 - line);
	if (hn >= sizeof(head))
		hn = sizeof(head) - 1;
	memcpy(head, colon + 1, hn);
	head[hn] = '\0';
	p = head;
	end = head + hn;
	for (int i = 0; i < 6; i++)
		if (field(&p, end, i == 5 ? 10 : 16, &v[i]) != 0)
			return 0;
	if (!(v[2] & SO_ACCEPTCON_FLAG) || p + 2 > end || p[0] != ' ' ||
	    p[1] != '/')
		return 0;
	*path = colon + 1 + (p - head) + 1;
	*plen = (size_t)(line + len - *path);
	return 1;
}

void
ll_socks_add_path(struct ll_socks *s, const char *p, size_t n)
{
	char path[LL_SOCK_PATH];

	if (n == 0 || n >= sizeof(path) || p[0] != '/')
		return;
	memcpy(path, p, n);
	path[n] = '\0';
	if (memchr(path, '\0', n) != NULL || !ll_socks_kind(path))
		return;
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->path[i], path) == 0)
			return;
	if (s->n == LL_SOCKS_MAX) {
		s->more++;
		return;
	}
	memcpy(s->path[s->n++], path, n + 1);
}

void
ll_socks_add_line(struct ll_socks *s, const char *line, size_t len)
{
	const char *p;
	size_t n;

	if (ll_socks_line(line, len, &p, &n))
		ll_socks_add_path(s, p, n);
}

/* Every whole line in buf[0..len); returns the bytes of a partial last
 * line, moved to the front. */
static size_t
add_lines(struct ll_socks *s, char *buf, size_t len)
{
	size_t start = 0;
	char *nl;

	while ((nl = memchr(buf + start, '\n', len - start)) != NULL) {
		ll_socks_add_line(s, buf + start, (size_t)(nl - buf) - start);
		start = (size_t)(nl - buf) + 1;
	}
	if (len - start == CHUNK) /* a line longer than the buffer: drop */
		return 0;
	memmove(buf, buf + start, len - start);
	return len - start;
}

int
ll_socks_read(struct ll_socks *s, const char *file)
{
	char *buf = malloc(CHUNK);
	size_t have = 0;
	ssize_t k;
	int fd;

	memset(s, 0, sizeof(*s));
	s->scanned = 1;
	fd = buf ? open(file, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0) {
		s->err = buf ? errno : ENOMEM;
		free(buf);
		return -1;
	}
	while ((k = read(fd, buf + have, CHUNK - have)) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			s->err = errno;
			break;
		}
		have = add_lines(s, buf, have + (size_t)k);
	}
	close(fd);
	if (have > 0 && s->err == 0) /* a last line without its newline */
		ll_socks_add_line(s, buf, have);
	free(buf);
	return s->err ? -1 : 0;
}

/* ---- the same table through NETLINK_SOCK_DIAG ------------------------
 * /proc/net/unix formats every unix socket of the network namespace (about
 * 1 us each in the kernel: 1.2 ms for 2000, most of them connected, not
 * listening); sock_diag is asked for the listening ones only, with their
 * names, and answers the same 2000 in about 40 us.  It needs no privilege;
 * where it is absent (no unix_diag) the file is read instead. */

static int
diag_request(int fd)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req r;
	} req;

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nlh.nlmsg_seq = 1;
	req.r.sdiag_family = AF_UNIX;
	req.r.udiag_states = 1U << TCP_LISTEN_STATE;
	req.r.udiag_show = UDIAG_SHOW_NAME;
	return send(fd, &req, sizeof(req), 0) == (ssize_t)sizeof(req) ? 0 : -1;
}

/* One message of the dump: its UNIX_DIAG_NAME, when it has one. */
static void
diag_one(struct ll_socks *s, const struct nlmsghdr *h)
{
	const struct unix_diag_msg *m = NLMSG_DATA(h);
	const struct rtattr *a = (const struct rtattr *)(m + 1);
	int len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*m));

	if (len < 0)
		return;
	for (; RTA_OK(a, len); a = RTA_NEXT(a, len))
		if (a->rta_type == UNIX_DIAG_NAME) {
			const char *p = RTA_DATA(a);
			size_t n = RTA_PAYLOAD(a);

			ll_socks_add_path(s, p, strnlen(p, n));
		}
}

/* 1 at the end of the dump, 0 for more, -1 on an error message. */
static int
diag_batch(struct ll_socks *s, const char *buf, ssize_t k)
{
	const struct nlmsghdr *h = (const struct nlmsghdr *)buf;

	for (; NLMSG_OK(h, k); h = NLMSG_NEXT(h, k)) {
		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR)
			return -1;
		if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY)
			diag_one(s, h);
	}
	return 0;
}

int
ll_socks_diag(struct ll_socks *s)
{
	struct sockaddr_nl from;
	socklen_t fl;
	char *buf = malloc(CHUNK);
	ssize_t k;
	int fd, rc = -1;

	memset(s, 0, sizeof(*s));
	s->scanned = 1;
	fd = buf ? socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
			  NETLINK_SOCK_DIAG) : -1;
	if (fd < 0 || diag_request(fd) != 0)
		goto out;
	for (;;) {
		fl = sizeof(from);
		k = recvfrom(fd, buf, CHUNK, 0, (struct sockaddr *)&from, &fl);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0 || fl != sizeof(from) || from.nl_pid != 0)
			break; /* only the kernel answers */
		rc = diag_batch(s, buf, k);
		if (rc != 0)
			break;
		rc = -1;
	}
	rc = rc == 1 ? 0 : -1;
out:
	s->err = rc == 0 ? 0 : (errno ? errno : EPROTO);
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

int
ll_socks_scan(struct ll_socks *s)
{
	if (ll_socks_diag(s) == 0)
		return 0;
	return ll_socks_read(s, "/proc/net/unix");
}

/* Could this process connect?  LL_SOCKS_MINE: a socket it owns (it may
 * chmod it); LL_SOCKS_OTHERS: another account's it may write (that
 * account answers it as it lets this user, not as this user); 0: no.
 * The path is looked at, never opened. */
static unsigned
reachable(const char *path)
{
	struct stat st;

	if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISSOCK(st.st_mode))
		return 0;
	if (st.st_uid == geteuid())
		return LL_SOCKS_MINE;
	return faccessat(AT_FDCWD, path, W_OK, 0) == 0 ? LL_SOCKS_OTHERS : 0;
}

static int
escaped(unsigned char c)
{
	return c <= 0x20 || c >= 0x7f || c == ',' || c == '\\';
}

static size_t
escaped_len(const char *p)
{
	size_t k = 0;

	for (; *p != '\0'; p++)
		k += escaped((unsigned char)*p) ? 4 : 1;
	return k;
}

static void
put_path(char *buf, size_t n, size_t *o, const char *p)
{
	static const char hex[] = "0123456789abcdef";

	for (; *p != '\0' && *o + 5 < n; p++) {
		unsigned char c = (unsigned char)*p;

		if (escaped(c)) {
			buf[(*o)++] = '\\';
			buf[(*o)++] = 'x';
			buf[(*o)++] = hex[c >> 4];
			buf[(*o)++] = hex[c & 0xf];
		} else {
			buf[(*o)++] = (char)c;
		}
	}
	buf[*o] = '\0';
}

size_t
ll_socks_reachable(const struct ll_socks *s, unsigned which, size_t max,
		   char *buf, size_t n)
{
	size_t count = 0, named = 0, o = 0;

	if (n == 0)
		return 0;
	buf[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		if (!(reachable(s->path[i]) & which))
			continue;
		count++;
		/* room for it, a space and " and <k> more" */
		if (named == max || o + escaped_len(s->path[i]) + 24 >= n)
			continue;
		if (named++)
			buf[o++] = ' ';
		put_path(buf, n, &o, s->path[i]);
	}
	if (count > named)
		snprintf(buf + o, n - o, "%sand %zu more", named ? " " : "",
			 count - named);
	return count;
}

static int
walls_unix(int kabi)
{
	return kabi >= 1 && ll_built_abi(kabi) >= RESOLVE_UNIX_ABI;
}

#define FACTS_LEAD "; reachable from inside now: "

void
ll_socks_facts_note(int kabi, const struct ll_socks *s, char *note, size_t n)
{
	char list[512];
	size_t len = strlen(note), room;

	if (kabi < 1 || walls_unix(kabi) || s->err != 0)
		return;
	if (len + sizeof(FACTS_LEAD) + 32 > n)
		return; /* no room for even one short path */
	room = n - len - (sizeof(FACTS_LEAD) - 1);
	if (room > sizeof(list))
		room = sizeof(list);
	if (ll_socks_reachable(s, LL_SOCKS_MINE | LL_SOCKS_OTHERS,
			       LL_SOCKS_LIST, list, room) == 0)
		return;
	snprintf(note + len, n - len, FACTS_LEAD "%s", list);
}

#define MINE_SAYS "; each answers as the user, and dropping its variable " \
	"(rule 9) hides it but does not close it"
#define OTHERS_LEAD "another account's, writable by this user: "
#define OTHERS_SAYS "; each answers this user as its owner lets it"

int
ll_socks_note(int kabi, const struct ll_socks *s, char *buf, size_t n)
{
	char mine[512], others[512];
	size_t k_mine, k_others;

	if (kabi < 1 || walls_unix(kabi))
		return 0;
	if (s->err != 0) {
		snprintf(buf, n, "landlock abi %d does not wall pathname unix "
			 "sockets, and neither sock_diag nor /proc/net/unix can "
			 "be read (%s) to name the agent and bus sockets that "
			 "stay reachable: any pathname socket this user may "
			 "write is reachable from inside", ll_built_abi(kabi),
			 strerror(s->err));
		return 1;
	}
	k_mine = ll_socks_reachable(s, LL_SOCKS_MINE, LL_SOCKS_LIST, mine,
				    sizeof(mine));
	k_others = ll_socks_reachable(s, LL_SOCKS_OTHERS, LL_SOCKS_LIST,
				      others, sizeof(others));
	if (k_mine + k_others == 0)
		return 0;
	snprintf(buf, n, "landlock abi %d does not wall pathname unix "
		 "sockets: reachable from inside: %s%s%s%s%s%s; landlock abi 9 "
		 "walls them", ll_built_abi(kabi), k_mine ? mine : "",
		 k_mine ? MINE_SAYS : "", k_mine && k_others ? "; " : "",
		 k_others ? OTHERS_LEAD : "", k_others ? others : "",
		 k_others ? OTHERS_SAYS : "");
	return 1;
}

/* The one look at the kernel's table for this process. */
static const struct ll_socks *
cached(void)
{
	if (!g_socks.scanned)
		(void)ll_socks_scan(&g_socks);
	return &g_socks;
}

void
ll_socks_on_facts(int kabi, char *note, size_t n)
{
	if (kabi >= 1 && !walls_unix(kabi))
		ll_socks_facts_note(kabi, cached(), note, n);
}

void
ll_socks_on_prepare(const struct ns_host *host, int kabi)
{
	char text[1400];

	if (kabi >= 1 && !walls_unix(kabi) &&
	    ll_socks_note(kabi, cached(), text, sizeof(text)))
		host->note(host->cookie, text);
}
