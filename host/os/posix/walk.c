/* SPDX-License-Identifier: MIT */
/* walk.c -- the policy's walk on POSIX (os/os.h "the policy's walk"):
 * openat with O_PATH (or O_RDONLY where there is none: posix.h) and
 * O_NOFOLLOW,
 * fstat, readlinkat, faccessat; shared by linux and darwin. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/util.h"

uint32_t
os_euid(void)
{
	return (uint32_t)geteuid();
}

uint32_t
os_ruid(void)
{
	return (uint32_t)getuid();
}

int
os_in_group(uint32_t gid)
{
	gid_t list[256];
	int n = getgroups(256, list);

	if ((gid_t)gid == getegid())
		return 1;
	for (int i = 0; i < n; i++)
		if (list[i] == (gid_t)gid)
			return 1;
	return 0;
}

size_t
os_root_len(const char *p)
{
	return p != NULL && p[0] == '/' ? 1 : 0;
}

int
os_walk_root(const char *p)
{
	if (os_root_len(p) == 0) {
		errno = EINVAL;
		return -1;
	}
	return posix_fd(open("/", posix_dir_search | O_DIRECTORY | O_CLOEXEC));
}

int
os_walk_at(int dirfd, const char *name, int want_dir)
{
	return posix_fd(openat(dirfd, name, posix_walk_open | O_CLOEXEC |
					   (want_dir ? O_DIRECTORY : 0)));
}

static void
from_stat(const struct stat *st, struct os_stat *out)
{
	out->dev = (uint64_t)st->st_dev;
	out->ino = (uint64_t)st->st_ino;
	out->rdev = (uint64_t)st->st_rdev;
	out->nlink = (uint64_t)st->st_nlink;
	out->mode = (uint32_t)st->st_mode;
	out->uid = (uint32_t)st->st_uid;
	out->gid = (uint32_t)st->st_gid;
	out->size = (uint64_t)st->st_size;
	out->mtime = (int64_t)st->st_mtime;
	posix_stat_times(st, &out->mtime_ns, &out->ctime_ns);
}

int
os_fstat(int fd, struct os_stat *out)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -1;
	from_stat(&st, out);
	return 0;
}

int
os_fstat_at(int dirfd, const char *name, struct os_stat *out)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	from_stat(&st, out);
	return 0;
}

int
os_stat_path(const char *path, struct os_stat *out)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return -1;
	from_stat(&st, out);
	return 0;
}

char *
os_link_read_at(int dirfd, const char *name)
{
	char buf[PATH_MAX];
	ssize_t n = readlinkat(dirfd, name, buf, sizeof(buf));

	if (n < 0 || (size_t)n >= sizeof(buf)) {
		if (n >= 0)
			errno = ENAMETOOLONG;
		return NULL;
	}
	return str_ndup(buf, (size_t)n);
}

char *
os_link_read(int fd)
{
	char buf[PATH_MAX];
	long n = posix_link_read(fd, buf, sizeof(buf));

	return n < 0 ? NULL : str_ndup(buf, (size_t)n);
}

int
os_fd_dup(int fd)
{
	return posix_fd(fcntl(fd, F_DUPFD_CLOEXEC, 3));
}

int
os_free_bytes(int fd, uint64_t *bytes)
{
	struct statvfs sv;

	if (fstatvfs(fd, &sv) != 0)
		return -1;
	*bytes = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
	return 0;
}

char *
os_fd_real_path(int fd)
{
	char buf[PATH_MAX];

	if (posix_fd_path(fd, buf, sizeof(buf)) != 0 || buf[0] != '/')
		return NULL;
	return strdup(buf);
}

int
os_mkdir_at(int dirfd, const char *name, unsigned mode)
{
	return mkdirat(dirfd, name, (mode_t)mode);
}

int
os_open_read_at(int dirfd, const char *name, int want_dir)
{
	return posix_fd(openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
				   O_CLOEXEC | (want_dir ? O_DIRECTORY : 0)));
}

int
os_open_readdir(const char *path)
{
	return posix_fd(open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

int
os_create_at(int dirfd, const char *name, unsigned mode)
{
	return posix_fd(openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
				   O_CLOEXEC, (mode_t)mode));
}

int
os_fchmod(int fd, unsigned mode)
{
	return fchmod(fd, (mode_t)mode);
}

int
os_fchmod_at(int dirfd, const char *name, unsigned mode)
{
	return fchmodat(dirfd, name, (mode_t)mode, AT_SYMLINK_NOFOLLOW);
}

int
os_unlink_at(int dirfd, const char *name, int is_dir)
{
	return unlinkat(dirfd, name, is_dir ? AT_REMOVEDIR : 0);
}

int
os_rename_at(int dirfd, const char *from, const char *to)
{
	return renameat(dirfd, from, dirfd, to);
}

int
os_may_write_at(int dirfd, const char *name)
{
	int fl = AT_SYMLINK_NOFOLLOW;

	if (name[0] == '\0') {
		if (posix_faccess_fd(dirfd, W_OK) == 0)
			return 1;
		return errno == EINVAL || errno == ENOSYS ? -1 : 0;
	}
	if (faccessat(dirfd, name, W_OK, fl) == 0)
		return 1;
	return errno == EINVAL || errno == ENOSYS ? -1 : 0;
}

int
os_fd_executable(int fd)
{
	char path[64];

	if (posix_faccess_fd(fd, X_OK) == 0)
		return 1;
	if (errno != EINVAL && errno != ENOSYS)
		return 0;
	snprintf(path, sizeof(path), "%s/%d", posix_fd_dir, fd);
	return faccessat(AT_FDCWD, path, X_OK, 0) == 0;
}

int
os_path_executable(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && !S_ISDIR(st.st_mode) &&
	       faccessat(AT_FDCWD, p, X_OK, 0) == 0;
}

char *
os_real_path(const char *path)
{
	return realpath(path, NULL);
}

char *
os_cwd(void)
{
	char buf[PATH_MAX];

	return getcwd(buf, sizeof(buf)) != NULL ? strdup(buf) : NULL;
}

const char *const *
os_exe_suffixes(const char *name)
{
	static const char *const none[] = {"", NULL};

	(void)name;
	return none;
}

char
os_path_list_sep(void)
{
	return ':';
}

int
os_inet_pton(const char *s, int v6, unsigned char out[16])
{
	memset(out, 0, 16);
	return inet_pton(v6 ? AF_INET6 : AF_INET, s, out) == 1;
}

int
os_ip_loopback(const char *host, int v6)
{
	struct in6_addr a6;
	struct in_addr a4;

	if (v6)
		return inet_pton(AF_INET6, host, &a6) == 1 &&
		       IN6_IS_ADDR_LOOPBACK(&a6);
	return inet_pton(AF_INET, host, &a4) == 1 &&
	       (ntohl(a4.s_addr) >> 24) == 127;
}

int
os_walk_parent(int fd)
{
	return posix_fd(openat(fd, "..", posix_dir_search | O_DIRECTORY | O_CLOEXEC));
}

int
os_open_dir(const char *path)
{
	return posix_fd(open(path, posix_dir_search | O_DIRECTORY | O_CLOEXEC));
}

const char *const *
os_probe_command(void)
{
	static const char *const argv[] = {"sh", "-c", "true", NULL};

	return argv;
}

char *
os_path_normal(const char *p)
{
	return strdup(p);
}

const char *
os_home_var(void)
{
	return "HOME";
}

int
os_run_name_locks(void)
{
	return 1;
}

int
os_run_job_flags(void)
{
	return 0;
}
