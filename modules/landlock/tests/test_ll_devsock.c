/* SPDX-License-Identifier: MIT */
/* test_ll_devsock.c -- landlock.so's device table (SPEC §6, the device
 * rows) and the reachable-socket NOTE (ll_socks.c, the pathname-socket
 * gap below ABI 9): the /proc/net/unix line parser, the agent and bus
 * table, reading a fabricated table, reachability decided on real sockets
 * of this process, the list's cap and escaping, and the NOTE itself. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/cu_run.h"
#include "common/fake_host.h"
#include "ll_socks.h"
#include "ll_table.h"

static char g_dir[64];

static int
in_list(const char *const *l, const char *s)
{
	for (; *l != NULL; l++)
		if (strcmp(*l, s) == 0)
			return 1;
	return 0;
}

#define ANY (LL_SOCKS_MINE | LL_SOCKS_OTHERS) /* every reachable one */

static void
test_devices(void)
{
	static const char *const rw[] = { "/dev/null", "/dev/zero",
					  "/dev/full", NULL };
	size_t n = 0;

	for (const char *const *p = ll_read_roots; *p != NULL; p++)
		CU_ASSERT(strcmp(*p, "/dev") != 0 &&
			  (strncmp(*p, "/dev/", 5) != 0 ||
			   strcmp(*p, "/dev/random") == 0 ||
			   strcmp(*p, "/dev/urandom") == 0));
	CU_ASSERT(in_list(ll_read_roots, "/dev/random"));
	CU_ASSERT(in_list(ll_read_roots, "/dev/urandom"));
	for (const char *const *p = ll_write_files; *p != NULL; p++, n++)
		CU_ASSERT(in_list(rw, *p));
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_FALSE(in_list(ll_write_files, "/dev/tty"));
	CU_ASSERT(in_list(ll_system_prefixes, "/dev"));
}

static void
test_line(void)
{
	const char *p;
	size_t n;
	const char *l1 = "00000000f15e66f9: 00000002 00000000 00010000 0001 01 "
			 "456933 /tmp/ssh-X/agent.12";
	const char *l2 = "000000008ce9b150: 00000003 00000000 00000000 0001 03  "
			 "1148 /run/user/1/bus";
	const char *l3 = "0000000000000000: 00000002 00000000 00010000 0001 01 "
			 " 2201 @/tmp/.X11-unix/X0";
	const char *l4 = "0000000000000000: 00000002 00000000 00010000 0001 01 "
			 "77 /a b/c d";
	const char *hdr = "Num       RefCount Protocol Flags    Type St Inode "
			  "Path";

	CU_ASSERT_EQUAL(ll_socks_line(l1, strlen(l1), &p, &n), 1);
	CU_ASSERT_EQUAL(n, strlen("/tmp/ssh-X/agent.12"));
	CU_ASSERT_EQUAL(strncmp(p, "/tmp/ssh-X/agent.12", n), 0);
	CU_ASSERT_EQUAL(ll_socks_line(l2, strlen(l2), &p, &n), 0); /* conn. */
	CU_ASSERT_EQUAL(ll_socks_line(l3, strlen(l3), &p, &n), 0); /* abstr. */
	CU_ASSERT_EQUAL(ll_socks_line(l4, strlen(l4), &p, &n), 1);
	CU_ASSERT_EQUAL(strncmp(p, "/a b/c d", n), 0);
	CU_ASSERT_EQUAL(ll_socks_line(hdr, strlen(hdr), &p, &n), 0);
	CU_ASSERT_EQUAL(ll_socks_line("x", 1, &p, &n), 0);
	/* no path after the inode */
	CU_ASSERT_EQUAL(ll_socks_line(l1, strlen(l1) - 20, &p, &n), 0);
}

static void
test_kinds(void)
{
	static const char *const yes[] = {
		"/tmp/ssh-XXXXabc/agent.1234", "/run/user/1/gnupg/S.gpg-agent",
		"/run/user/1/gnupg/S.gpg-agent.ssh", "/run/user/1/ssh-agent.socket",
		"/run/user/1/bus", "/run/dbus/system_bus_socket",
		"/run/user/1/systemd/private", "/run/docker.sock",
		"/run/user/1/podman/podman.sock", "/run/user/1/keyring/control",
		"/run/user/1/pulse/native", "/run/user/1/pipewire-0",
		"/run/user/1/wayland-0", "/tmp/.X11-unix/X0",
		"/tmp/tmux-1000/default", "/tmp/dbus-abcdef",
		"/var/run/.heim_org.h5l.kcm-socket", "/run/pcscd/pcscd.comm",
		"/home/u/.1password/agent.sock",
		/* compositors, terminals and daemons that run commands */
		"/run/user/1/sway-ipc.1.77.sock", "/run/user/1/i3/ipc-socket.9",
		"/run/user/1/hypr/abc/.socket.sock",
		"/run/user/1/niri.wayland-1.9.sock",
		"/run/user/1/wezterm/gui-sock-9", "/run/user/1/Alacritty-0-9.sock",
		"/run/user/1/zellij/0.40/s", "/run/buildkit/buildkitd.sock",
		NULL,
	};
	static const char *const no[] = {
		"/run/systemd/journal/stdout", "/run/user/1/systemd/notify",
		"/tmp/app.sock", "/tmp/ssh-x", "relative/agent.1", "/",
		"/run/agentdir/x.sock", NULL,
	};

	for (size_t i = 0; yes[i] != NULL; i++)
		if (!ll_socks_kind(yes[i]))
			CU_FAIL(yes[i]);
	for (size_t i = 0; no[i] != NULL; i++)
		if (ll_socks_kind(no[i]))
			CU_FAIL(no[i]);
}

/* A listening socket at path, or -1. */
static int
listen_at(const char *path)
{
	struct sockaddr_un sa;
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(s, 1) != 0)
		return -1;
	return s;
}

static void
test_read_and_reach(void)
{
	char a[160], b[160], file[160], list[512];
	struct ll_socks s;
	FILE *f;
	int fa, fb;

	snprintf(a, sizeof(a), "%s/ssh-Q/agent.7", g_dir);
	snprintf(b, sizeof(b), "%s/ssh-Q/agent.8", g_dir);
	snprintf(file, sizeof(file), "%s/unix", g_dir);
	snprintf(list, sizeof(list), "%s/ssh-Q", g_dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(list, 0700), 0);
	fa = listen_at(a);
	CU_ASSERT_FATAL(fa >= 0);
	f = fopen(file, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "Num       RefCount Protocol Flags    Type St Inode Path\n");
	fprintf(f, "0000000000000001: 00000002 00000000 00010000 0001 01 11 %s\n",
		a);
	/* named in the table but gone from disk: not reachable */
	fprintf(f, "0000000000000002: 00000002 00000000 00010000 0001 01 12 %s\n",
		b);
	fprintf(f, "0000000000000003: 00000002 00000000 00010000 0001 01 13 %s\n",
		a); /* twice: once */
	/* a plain file where a socket was: not a socket */
	fprintf(f, "0000000000000004: 00000002 00000000 00010000 0001 01 14 %s",
		file); /* and no newline at the end */
	fclose(f);
	CU_ASSERT_EQUAL(ll_socks_read(&s, file), 0);
	CU_ASSERT_EQUAL(s.n, 2); /* a and b; the file is no agent name */
	CU_ASSERT_EQUAL(ll_socks_reachable(&s, ANY, 8, list, sizeof(list)), 1);
	CU_ASSERT_STRING_EQUAL(list, a);
	/* b now exists as a regular file: still not a socket */
	fb = creat(b, 0600);
	CU_ASSERT_EQUAL(ll_socks_reachable(&s, ANY, 8, list, sizeof(list)), 1);
	close(fb);
	unlink(b);
	fb = listen_at(b);
	CU_ASSERT_EQUAL(ll_socks_reachable(&s, ANY, 8, list, sizeof(list)), 2);
	CU_ASSERT_EQUAL(ll_socks_reachable(&s, ANY, 1, list, sizeof(list)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(list, " and 1 more"));
	CU_ASSERT_EQUAL(ll_socks_read(&s, "/nonexistent/unix"), -1);
	CU_ASSERT_EQUAL(s.err, ENOENT);
	close(fa);
	close(fb);
	unlink(a);
	unlink(b);
	unlink(file);
	snprintf(list, sizeof(list), "%s/ssh-Q", g_dir);
	rmdir(list);
}

static void
test_cap_and_escape(void)
{
	struct ll_socks s;
	char line[256], buf[512];
	int fds[LL_SOCKS_MAX + 2];
	char d[128];

	memset(&s, 0, sizeof(s));
	snprintf(d, sizeof(d), "%s/ssh-A B,C", g_dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(d, 0700), 0);
	for (int i = 0; i < LL_SOCKS_MAX + 2; i++) {
		char path[160];

		snprintf(path, sizeof(path), "%s/agent.%d", d, i);
		snprintf(line, sizeof(line), "00: 00000002 00000000 00010000 "
			 "0001 01 %d %s", i + 1, path);
		ll_socks_add_line(&s, line, strlen(line));
		fds[i] = listen_at(path);
	}
	CU_ASSERT_EQUAL(s.n, LL_SOCKS_MAX);
	CU_ASSERT_EQUAL(s.more, 2);
	CU_ASSERT_EQUAL(ll_socks_reachable(&s, ANY, LL_SOCKS_LIST, buf,
					   sizeof(buf)),
			LL_SOCKS_MAX);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "/ssh-A\\x20B\\x2cC/agent.0 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, " and 24 more"));
	CU_ASSERT_PTR_NULL(strchr(buf, ','));
	/* a small buffer names fewer and still ends whole */
	CU_ASSERT_EQUAL(ll_socks_reachable(&s, ANY, 8, buf, 120), LL_SOCKS_MAX);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, " more"));
	CU_ASSERT(strlen(buf) < 120);
	for (int i = 0; i < LL_SOCKS_MAX + 2; i++) {
		snprintf(line, sizeof(line), "%s/agent.%d", d, i);
		unlink(line);
		if (fds[i] >= 0)
			close(fds[i]);
	}
	rmdir(d);
}

static int
has(const struct ll_socks *s, const char *p)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->path[i], p) == 0)
			return 1;
	return 0;
}

/* sock_diag and /proc/net/unix see the same listening socket; a
 * connected one (a socketpair) and a bound, not listening one are not
 * kept by either. */
static void
test_diag_and_file(void)
{
	char d[128], p[160], q[160];
	struct ll_socks a, b;
	struct sockaddr_un sa;
	int fd, nl, sp[2];

	snprintf(d, sizeof(d), "%s/ssh-D", g_dir);
	snprintf(p, sizeof(p), "%s/agent.5", d);
	snprintf(q, sizeof(q), "%s/agent.6", d);
	CU_ASSERT_EQUAL_FATAL(mkdir(d, 0700), 0);
	fd = listen_at(p);
	nl = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%.100s", q);
	CU_ASSERT(fd >= 0 && nl >= 0 &&
		  bind(nl, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	CU_ASSERT_EQUAL(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	CU_ASSERT_EQUAL(ll_socks_diag(&a), 0);
	CU_ASSERT(has(&a, p));
	CU_ASSERT_FALSE(has(&a, q));
	CU_ASSERT_EQUAL(ll_socks_read(&b, "/proc/net/unix"), 0);
	CU_ASSERT(has(&b, p));
	CU_ASSERT_FALSE(has(&b, q));
	CU_ASSERT_EQUAL(ll_socks_scan(&a), 0);
	CU_ASSERT(has(&a, p));
	close(sp[0]);
	close(sp[1]);
	close(nl);
	close(fd);
	unlink(p);
	unlink(q);
	rmdir(d);
}

/* The texts, on a table made here: only what this test made is in it. */
static void
test_note_text(void)
{
	char d[128], p[160], note[512], text[1400];
	struct ll_socks s;
	int fd;

	snprintf(d, sizeof(d), "%s/ssh-N", g_dir);
	snprintf(p, sizeof(p), "%s/agent.99", d);
	CU_ASSERT_EQUAL_FATAL(mkdir(d, 0700), 0);
	fd = listen_at(p);
	CU_ASSERT_FATAL(fd >= 0);
	memset(&s, 0, sizeof(s));
	ll_socks_add_path(&s, p, strlen(p));
	CU_ASSERT_EQUAL(ll_socks_note(9, &s, text, sizeof(text)), 0);
	CU_ASSERT_EQUAL(ll_socks_note(12, &s, text, sizeof(text)), 0);
	CU_ASSERT_EQUAL(ll_socks_note(7, &s, text, sizeof(text)), 1);
	snprintf(note, sizeof(note), "landlock abi 7 does not wall pathname "
		 "unix sockets: reachable from inside: %s; each answers as "
		 "the user, and dropping its variable (rule 9) hides it but "
		 "does not close it; landlock abi 9 walls them", p);
	CU_ASSERT_STRING_EQUAL(text, note);
	snprintf(note, sizeof(note), "clause");
	ll_socks_facts_note(7, &s, note, sizeof(note));
	snprintf(text, sizeof(text), "clause; reachable from inside now: %s",
		 p);
	CU_ASSERT_STRING_EQUAL(note, text);
	snprintf(note, sizeof(note), "clause");
	ll_socks_facts_note(9, &s, note, sizeof(note));
	CU_ASSERT_STRING_EQUAL(note, "clause");
	/* another account's socket this user may write: named as that
	 * account's, never as one that answers as the user (needs root to
	 * give it away) */
	if (geteuid() == 0 && chmod(p, 0666) == 0 &&
	    chown(p, 65534, 65534) == 0) {
		CU_ASSERT_EQUAL(ll_socks_note(7, &s, text, sizeof(text)), 1);
		snprintf(note, sizeof(note), "landlock abi 7 does not wall "
			 "pathname unix sockets: reachable from inside: "
			 "another account's, writable by this user: %s; each "
			 "answers this user as its owner lets it; landlock abi "
			 "9 walls them", p);
		CU_ASSERT_STRING_EQUAL(text, note);
		CU_ASSERT_PTR_NULL(strstr(text, "as the user"));
		CU_ASSERT_EQUAL(ll_socks_reachable(&s, LL_SOCKS_MINE, 8, note,
						   sizeof(note)), 0);
		CU_ASSERT_EQUAL(ll_socks_reachable(&s, LL_SOCKS_OTHERS, 8,
						   note, sizeof(note)), 1);
		CU_ASSERT_EQUAL(chown(p, 0, 0), 0);
		snprintf(note, sizeof(note), "clause");
	}
	/* nothing reachable: no NOTE, the note unchanged */
	close(fd);
	unlink(p);
	CU_ASSERT_EQUAL(ll_socks_note(7, &s, text, sizeof(text)), 0);
	ll_socks_facts_note(7, &s, note, sizeof(note));
	CU_ASSERT_STRING_EQUAL(note, "clause");
	/* the table could not be read: said, never silent */
	s.err = EACCES;
	CU_ASSERT_EQUAL(ll_socks_note(7, &s, text, sizeof(text)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "can be read (Permission "
				      "denied)"));
	rmdir(d);
}

/* Through the host: the process's own look at the kernel's table. */
static void
test_note_host(void)
{
	char d[128], p[160];
	int fd;

	snprintf(d, sizeof(d), "%s/ssh-H", g_dir);
	snprintf(p, sizeof(p), "%s/agent.98", d);
	CU_ASSERT_EQUAL_FATAL(mkdir(d, 0700), 0);
	fd = listen_at(p);
	CU_ASSERT_FATAL(fd >= 0);
	fh_reset();
	ll_socks_on_prepare(&fake_ns_host, 9); /* walled at 9: nothing */
	CU_ASSERT_EQUAL(fh.notes_len, 0);
	ll_socks_on_prepare(&fake_ns_host, 7);
	CU_ASSERT_PTR_NOT_NULL(strstr(fh.notes, "landlock abi 7 does not wall "
				      "pathname unix sockets: reachable from "
				      "inside: "));
	close(fd);
	unlink(p);
	rmdir(d);
}

static int
suite_init(void)
{
	snprintf(g_dir, sizeof(g_dir), "/tmp/nova-ll-socks.XXXXXX");
	return mkdtemp(g_dir) == NULL ? -1 : 0;
}

static int
suite_clean(void)
{
	return rmdir(g_dir);
}

int
main(void)
{
	static const struct cu_case cases[] = {
		{ "devices: no /dev root, each device named", test_devices },
		{ "/proc/net/unix line parser", test_line },
		{ "agent and bus table", test_kinds },
		{ "read a table, reachability on disk", test_read_and_reach },
		{ "list cap and escaping", test_cap_and_escape },
		{ "sock_diag and /proc/net/unix agree", test_diag_and_file },
		{ "the NOTE and the check note's texts", test_note_text },
		{ "the NOTE through the host", test_note_host },
		{ NULL, NULL }
	};

	return cu_run("landlock devices and sockets", suite_init, suite_clean,
		      cases);
}
