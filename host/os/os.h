/* SPDX-License-Identifier: MIT */
/* os.h -- the seam between the host and the operating system: what the
 * host asks of the platform it runs on.  The Linux layer is os/linux/; the
 * Makefile builds the layer of the platform it builds for, and no file
 * outside os/ tests for a platform. */
#ifndef NS_HOST_OS_H
#define NS_HOST_OS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* The longest path the host takes, in bytes with its NUL: the system's
 * PATH_MAX on POSIX; 4096 on Windows, where mingw's PATH_MAX is MAX_PATH
 * (260), the limit of a path the Win32 calls take in its plain form only:
 * this layer gives them a longer one as "\\?\" or "\\?\UNC\"
 * (os/windows/wpath.c). */
#if defined(_WIN32)
#define OS_PATH_MAX 4096
#else
#define OS_PATH_MAX PATH_MAX
#endif

/* Whether a file the tool loads or reads as its own (a module, the config)
 * can be trusted: decided on the open descriptor, never by name again. */
enum os_trust {
	OS_TRUST_OK = 0,
	OS_TRUST_WRONG_TYPE, /* not a regular file (or not a directory) */
	OS_TRUST_UNSAFE      /* it or a directory above it could be changed
				by another user, or it moved while checked */
};

/* fd is the open file and path its absolute name (for the walk up);
 * want_regular 1 wants a regular file, 0 a directory.  The file and every
 * directory above the inode fd names must be owned by root or the caller
 * and not writable by group or other.  On OS_TRUST_OK *why is NULL, else
 * one sentence (heap; NULL when even that could not be allocated). */
enum os_trust os_trust_fd(int fd, const char *path, int want_regular,
			  char **why);

/* Open a file the tool loads or reads as its own (a module, the config;
 * want_dir 1: a directory) for reading: the last component never followed
 * as a link (errno ELOOP), close-on-exec, no blocking open; where the
 * platform has share modes, none for writing or deleting, so it cannot
 * change while open.  The descriptor, or -1 with errno (ENOENT when it is
 * not there). */
int os_open_own(const char *path, int want_dir);

/* ---- module files ------------------------------------------------------ */

/* Is the module file open on fd built for this machine?  0 yes (or not
 * a format this layer judges: loading says why), -1 no with *why one
 * sentence naming both machines (heap; NULL when out of memory). */
int os_module_machine(int fd, char **why);

/* Load the module file open on fd, exactly that inode (path is its name,
 * for messages), so that writing the file in place later cannot reach the
 * loaded code: linux and darwin load a private copy of the checked bytes
 * (refused when the file changed while copied), windows the file itself
 * (a loaded DLL cannot be written).  The caller may close fd after.  The
 * handle, or NULL with *why. */
void *os_module_open(int fd, const char *path, char **why);
void *os_module_sym(void *handle, const char *name);
/* Only before any of the module's code ran. */
void os_module_close(void *handle);

/* ---- this process ------------------------------------------------------ */

/* The absolute path of the running binary into buf (n bytes): 0, or -1
 * when it cannot be found or does not fit. */
/* EMFILE or ENFILE when a descriptor the layer made failed for it (the
 * process's limit, or the system's table, was full), else 0: a refusal
 * then names that cause, not its consequence. */
int os_fd_exhausted(void);
/* rc as given; when it is < 0 and errno EMFILE or ENFILE, remembered
 * for os_fd_exhausted: for a descriptor a room makes itself (a socket, a
 * plan's temporary file). */
int os_fd_made(int rc);
/* The process's descriptor limit (RLIMIT_NOFILE's soft one), or -1. */
long os_fd_limit(void);
int os_self_exe(char *buf, size_t n);
/* Where os_self_exe looks, and what to do when it fails, for the
 * refusal ("/proc/self/exe cannot be read: mount /proc ..."). */
const char *os_self_exe_hint(void);
/* The canonical name of the directory path names (links followed), as
 * the kernel knows the inode it reached: one open and one look at the
 * descriptor, not one readlink per component.  Heap, or NULL (errno set)
 * when it is not an open-able directory or memory ran out. */
char *os_real_dir(const char *path);
/* The home directory the user database gives uid, or NULL (none, not
 * absolute, or no answer).  Looked up once per process and uid (the home
 * guard and the run-name directory ask alike); where the platform's user
 * database is a file it names first, read from that file without its
 * general lookup.  The string lives as long as the process. */
const char *os_user_home(unsigned uid);
/* Does this nsswitch.conf text name "files" first for db, with no action
 * after it?  (Exposed for the unit tests of os_user_home's fast path.) */
int os_nss_files_first(const char *conf, const char *db);
/* Is this process set-id (or otherwise marked secure by the loader)?  Then
 * the environment must not steer it. */
int os_is_setid(void);

/* The arguments and the environment as the host speaks them, UTF-8:
 * called first thing in main() with main's own.  POSIX leaves them as
 * they are (the bytes the kernel gave; *envp environ).  Windows replaces
 * them: main()'s come in the ANSI code page, where a "ü" of another code
 * page, a CJK name or an emoji is '?' or lost; the C runtime's wide argv
 * and environment (the same parse as the narrow argv, no wildcard
 * expansion) are converted to UTF-8 instead.  0, or -1 with *why one
 * sentence (heap; NULL when out of memory) naming every argument (by its
 * position: 0 the program, 1 the first word after it) and every
 * environment variable (by its name) holding UTF-16 that is no text (an
 * unpaired surrogate), which has no UTF-8 form: refused, never replaced.
 * The vectors live as long as the process. */
int os_main_args(int *argc, char ***argv, char ***envp, char **why);
/* The caller's environment variable name: POSIX getenv; Windows the
 * environment os_main_args gave (names ignoring ASCII case, as
 * os_env_get), never the C runtime's ANSI copy, or NULL. */
const char *os_getenv(const char *name);

/* The signals that ask the tool to stop (INT, TERM, HUP, QUIT) go to fn,
 * which the wrap and `run` use to forward them to the command; a HUP the
 * caller started the tool with ignored (nohup) stays ignored. */
void os_catch_stop_signals(void (*fn)(int));
/* The name of a stop signal os_catch_stop_signals hands fn ("SIGTERM"),
 * or "a stop signal" for another number. */
const char *os_stop_signal_name(int sig);
/* At the tool's start: a SIGCHLD the caller left ignored is set back to
 * its default (an ignored SIGCHLD makes the kernel reap every child, and
 * the tool would lose its command's status); POSIX only. */
void os_signals_start(void);

/* ---- paths and descriptors --------------------------------------------- */

/* Is path absolute on this platform?  POSIX: "/..."; Windows: a drive
 * ("C:/..." or "C:\\...") or a UNC name ("//server/share/...").  A
 * drive-relative "C:x" or a rooted "/x" without a drive is not. */
int os_is_absolute(const char *path);

/* The last directory separator of path ('/'; Windows: '/' or '\\'), or
 * NULL; and whether the first n bytes of s hold one (Windows: or a
 * drive's ':'), so that s is not one bare file name. */
const char *os_last_sep(const char *path);
int os_has_sep(const char *s, size_t n);

/* What is at path, its last component not followed. */
enum os_path_kind {
	OS_PATH_ABSENT = 0, /* nothing (or it cannot be looked at) */
	OS_PATH_LINK,       /* a symbolic link (Windows: a reparse point) */
	OS_PATH_DIR,        /* a directory */
	OS_PATH_OTHER       /* anything else */
};
enum os_path_kind os_path_kind(const char *path);
/* Is path (links followed) a directory?  1 or 0. */
int os_is_dir(const char *path);

/* A name that opens exactly the file open on fd for as long as fd stays
 * open, for a library that only takes a name (iniparser): Linux
 * /proc/self/fd/N; Windows the final path of the handle, which cannot be
 * renamed or replaced while os_open_own's handle is open.  Heap or NULL. */
char *os_fd_name(int fd);
/* Open the entry name (one component) of the directory open on dirfd,
 * dirpath its name, as os_open_own opens a file: the last component
 * never followed (errno ELOOP), no blocking open, close-on-exec, no write
 * or delete sharing where the platform has share modes. */
int os_open_own_at(int dirfd, const char *dirpath, const char *name);
/* Call fn(arg, name) for every entry of the directory open on dirfd
 * (dirpath its name, or NULL: the descriptor's own) but "." and "..", in
 * the order the system lists them.  0, or -1 with errno when it cannot be listed (fn's nonzero
 * return stops the walk and is returned). */
int os_dir_names(int dirfd, const char *dirpath,
		 int (*fn)(void *arg, const char *name), void *arg);

/* Is fd an open descriptor the tool may write its lines to (--status-fd)?
 * 0, or -1 with *why " (not open)" or " (open read-only)". */
int os_fd_writable(int fd, const char **why);
/* Make fd close-on-exec (Windows: not inherited): 0, or -1 with errno. */
int os_fd_cloexec(int fd);

/* A POSIX wait status: 1 with *code its exit code, 0 with *code the
 * signal that ended it, -1 neither.  (Windows has no wait status: the
 * wall's wait() says how the command ended; always -1 there.) */
int os_wait_status(int st, int *code);

/* ---- other processes -------------------------------------------------- */

/* Is process pid alive (one the caller may not signal counts as alive)?
 * 1 or 0. */
int os_pid_alive(int64_t pid);
/* Ask process pid to stop (hard 0: SIGTERM; Windows has no such request
 * to a process that is not a console's own: -1, ENOSYS) or end it (hard
 * 1: SIGKILL; Windows TerminateProcess with 137).  0, or -1 with errno. */
int os_pid_stop(int64_t pid, int hard);
/* Keep directory dirfd reachable after the tool ends: a detached process
 * (a session of its own, stdio on /dev/null, keepfd its descriptor 3 and
 * nothing else) whose working directory it is, until SIGTERM or SIGKILL
 * ends it (POSIX: /proc/<pid>/cwd on Linux).  *pid its pid.  0, or -1
 * with errno (Windows: ENOSYS, run's places there outlive the tool). */
int os_hold_dir(int dirfd, int keepfd, int64_t *pid);
/* A name the caller can use to reach process pid's working directory
 * (Linux /proc/<pid>/cwd): 0 with it in buf, or -1 (ENOSYS: the
 * platform has none). */
int os_pid_cwd_name(int64_t pid, char *buf, size_t n);

struct os_stat; /* below, with the policy's walk */
/* The file process pid (0: this process) executes: *st its status.  0,
 * or -1 with errno (EACCES: the platform will not say, as Linux across
 * Landlock domains).  Linux /proc/<pid>/exe, followed by the kernel;
 * darwin proc_pidpath() then stat() of that name. */
int os_proc_exe(int64_t pid, struct os_stat *st);
/* The owner (effective uid) and command name (at most n-1 bytes, as the
 * kernel keeps it: 15 on Linux, 16 on darwin) of process pid (0: this
 * process): 0, or -1 with errno.  Linux /proc/<pid> and its comm; darwin
 * proc_pidinfo(PROC_PIDTBSDINFO). */
int os_proc_owner_comm(int64_t pid, uint32_t *uid, char *comm, size_t n);

/* Is the directory entry name of the directory open on dirfd in use by a
 * process: its working directory (or root) is that directory or beneath
 * it (by identity, whatever name the process reached it by)?  The caller
 * holds no descriptor of that directory itself while it asks (Windows
 * counts one as a use).  1 yes, 0 no process this process can look at
 * is, -1 this platform cannot tell or name is not a directory (the caller
 * must then take it as in use).  *unseen counts the processes that exist
 * but could not be looked at (another user's, without privilege).  Linux:
 * /proc/<pid>/cwd and /proc/<pid>/root, each walked up by "..".  Windows:
 * every directory of the tree (never through a reparse point) opened with
 * DELETE access, which fails with a sharing violation while any process
 * holds a handle to that directory that does not share delete -- a
 * process's working directory is one; a file held open below it is not
 * seen (its delete fails later); darwin: -1. */
int os_dir_in_use_at(int dirfd, const char *name, unsigned *unseen);
/* Take the lock a job working in the directory entry name of dirfd holds
 * (docs/SPEC-SANDBOX.md §15 "In use"): POSIX flock, exclusive, without
 * waiting, on the directory (a job holds it shared: `flock -s <tree>`),
 * *lockfd then open until the caller closes it after its work.  1 taken,
 * 0 this platform has no such lock (Windows: a job's working directory is
 * what os_dir_in_use_at sees; *lockfd -1), -1 it is held elsewhere or
 * cannot be taken (errno). */
int os_dir_lock_at(int dirfd, const char *name, int *lockfd);
/* The id of the mount fd is on (a bind mount of the same file system
 * too): 0 and *id, or -1 when this platform or kernel cannot say (the
 * caller then has only st_dev).  Windows: the volume serial number (a
 * volume mounted in a directory is reached through a reparse point,
 * which no deletion enters). */
int os_mount_id(int fd, unsigned long long *id);

/* ---- the tool's own processes (run/, verbs/probe.c) ------------------- */

/* A pipe, both ends close-on-exec: 0, or -1 with errno. */
int os_pipe(int fds[2]);
/* A connected pair for the messages between run's supervisor and keeper,
 * both ends close-on-exec: each message of a channel is read whole (every
 * message of a channel has the same length), a descriptor can ride along,
 * and an end closed (its process gone) is EOF at the other.  Linux
 * SOCK_SEQPACKET; darwin (no SOCK_SEQPACKET for AF_UNIX) a stream read and
 * written a whole message at a time.  0, or -1 with errno. */
int os_msg_pair(int sv[2]);
/* Send len bytes as one message, fd (>= 0) passed along; a peer gone is
 * an error, never a SIGPIPE.  0, or -1 with errno. */
int os_msg_send(int sock, const void *buf, size_t len, int fd);
/* Receive one message of len bytes; *fd the descriptor it carried
 * (close-on-exec) or -1.  0, or -1: the peer gone (ECONNRESET), an error,
 * or a caught signal before anything was read (EINTR). */
int os_msg_recv(int sock, void *buf, size_t len, int *fd);

/* Block SIGCHLD, so that os_sigchld_wait can sleep until one comes (a
 * child resets its mask).  Where the wait is a pselect (no sigtimedwait:
 * darwin) a handler that does nothing is installed too. */
void os_sigchld_block(void);
/* Sleep until a SIGCHLD (blocked by os_sigchld_block), a caught signal or
 * ns nanoseconds.  Linux sigtimedwait; elsewhere pselect with SIGCHLD
 * unblocked for the wait alone. */
void os_sigchld_wait(long long ns);
/* Make this process the one its descendants' orphans come back to (Linux
 * PR_SET_CHILD_SUBREAPER): 0, or -1 (ENOSYS: darwin and Windows have no
 * such thing; the process model there is proc/pgreaper.c's group). */
int os_subreaper(void);
/* Have the kernel SIGKILL this process when its parent dies (Linux
 * PR_SET_PDEATHSIG): 0, or -1 (ENOSYS: elsewhere a parent's end is seen
 * as EOF on a pipe it held). */
int os_die_with_parent(void);
/* Root only: become uid and gid 65534 ("nobody") with no supplementary
 * group and, with that, no capability (a process the tool starts for
 * the command's sake, e.g. the --net-allow proxy under `run`).  0 also
 * when the process is not root (nothing to drop); -1 when a step
 * failed or root is still held. */
int os_become_nobody(void);
/* Close every descriptor from lowfd up (Linux: close_range(2) in one
 * call; elsewhere, or where the kernel lacks it, one close() each up to
 * the descriptor limit, at most 65536). */
void os_close_from(int lowfd);

/* One process the system lists (os_procs). */
struct os_proc {
	int64_t pid, ppid, pgid;
	uint64_t rss;   /* resident bytes (0: the platform would not say) */
	uint64_t start; /* when it started, in the platform's unit: only
			   compared with another's (a pid reused is newer) */
	char state;     /* 'Z' a zombie, 'X' dead, 'T' stopped, else alive */
};
/* Call fn for every process the system lists now (one that is gone
 * meanwhile is left out): 0, fn's nonzero, or -1 with errno when the list
 * cannot be read.  Linux /proc/<pid>/stat; darwin sysctl KERN_PROC_ALL
 * with proc_pidinfo's resident size for the caller's own processes;
 * Windows ENOSYS (the wall keeps the caps there). */
int os_procs(int (*fn)(void *arg, const struct os_proc *p), void *arg);
/* The system's task total, the base of the process cap's RLIMIT_NPROC:
 * Linux sysinfo(2)'s procs (/proc/loadavg past its 16 bits); darwin the
 * processes os_procs lists.  0, or -1. */
int os_task_total(uint64_t *tasks);

/* Memory the resident sets do not show (the memory cap, proc/caps.c). */
#define OS_FD_PER_PROC 4096   /* descriptors looked at per process */
#define OS_FD_PER_COUNT 65536 /* ... and per os_proc_memory call */
struct os_memuse {
	uint64_t held;  /* files on memory file systems the descriptors hold,
			   each file once */
	uint64_t swap;  /* swapped-out memory */
	int blind;      /* some descriptor was not looked at (denied, or
			   past OS_FD_PER_*): the caller falls back on
			   os_shmem's growth */
};
/* Is the file system of the directory open on fd a memory one (tmpfs,
 * hugetlbfs, ramfs: its files are memory)?  1 with *used its bytes in
 * use, 0 not one, -1 with errno.  darwin: 0 (no memory file system is
 * counted there). */
int os_memfs(int fd, uint64_t *used);
/* The machine's shared memory in bytes (Linux sysinfo(2)'s sharedram,
 * /proc/meminfo's Shmem): 0, or -1 (ENOSYS: darwin, Windows). */
int os_shmem(uint64_t *bytes);
/* What the n processes pids hold beyond their resident sets (their
 * swapped-out memory, the memory files their descriptors hold that
 * skip(arg, dev) does not take as counted elsewhere): 0 and *out, or -1
 * (ENOSYS: darwin counts resident memory only; docs/SPEC-SANDBOX.md). */
int os_proc_memory(const int64_t *pids, size_t n,
		   int (*skip)(void *arg, uint64_t dev), void *arg,
		   struct os_memuse *out);

/* n bytes from the system's random source (getentropy, 256 bytes a call;
 * Windows rand_s): 0, or -1 with errno. */
int os_random_bytes(void *buf, size_t n);

/* ---- what the worktree verb and toolchain discovery need -------------- */

/* Make what was written to fd durable (fsync; Windows FlushFileBuffers).
 * 0, or -1 with errno. */
int os_fsync(int fd);
/* Rename the file from of the directory open on dirfd over the file to
 * in the same directory, replacing it whole (POSIX renameat; Windows
 * MoveFileExW with MOVEFILE_REPLACE_EXISTING, never through a link).
 * 0, or -1 with errno. */
int os_replace_at(int dirfd, const char *from, const char *to);
/* A descriptor of the directory open on fd (any kind: O_PATH too) that
 * os_dir_names can list: POSIX openat(fd, ".", O_RDONLY|O_DIRECTORY);
 * Windows a duplicate.  Close-on-exec; the descriptor, or -1. */
int os_dir_reopen(int fd);
/* The value of the variable name in env ("NAME=value" entries, NULL-
 * terminated, may be NULL), names compared as this platform compares
 * them (POSIX exactly; Windows ignoring ASCII case: "Path" is PATH), or
 * NULL. */
const char *os_env_get(char *const *env, const char *name);
/* What a program started with a built environment (os/tool.h) needs of
 * the caller's on this platform besides what its caller lists: POSIX
 * none; Windows the system's variables (SystemRoot: Winsock and the
 * crypto providers fail without it; windir, SystemDrive, ProgramData,
 * PATHEXT, NUMBER_OF_PROCESSORS, PROCESSOR_ARCHITECTURE).  NULL-
 * terminated. */
const char *const *os_env_system(void);
/* The variables naming the user's profile and temporary directories
 * beside HOME: POSIX none; Windows USERPROFILE, APPDATA, LOCALAPPDATA,
 * TEMP, TMP (a tool asked in a private directory gets it for each).
 * NULL-terminated. */
const char *const *os_env_profile(void);
/* The directories a private temporary directory may be made in, in
 * order: POSIX /tmp, /var/tmp; Windows the user's temp directory
 * (GetTempPathW).  NULL-terminated. */
const char *const *os_temp_dirs(void);

/* ---- the policy's walk: one component at a time (policy/) ------------- */

/* What a walk learns of an open file, in POSIX st_mode spelling on every
 * platform: the type bits (S_IFDIR, S_IFREG, S_IFCHR; OS_S_IFLNK for a
 * link), the permission bits (S_IWGRP|S_IWOTH: someone but the owner may
 * change it) and OS_S_ISVTX.  POSIX: fstat's own fields.  Windows: the
 * identity is the volume serial and the file index; a reparse point is
 * the link; the owner SID maps to uid 0 (SYSTEM, Administrators,
 * TrustedInstaller: no user's), os_euid() (the caller) or OS_UID_OTHER;
 * the DACL gives S_IWGRP|S_IWOTH when a SID other than those may write,
 * add, delete or change the security of it (os/windows/trust.c's rule);
 * never sticky; S_IXUSR for a regular file the caller may execute. */
struct os_stat {
	uint64_t dev, ino; /* identity */
	uint64_t rdev;     /* a character device's number */
	uint64_t nlink;    /* names (0: removed while open) */
	uint32_t mode;
	uint32_t uid, gid;
	uint64_t size;     /* a regular file's bytes */
	int64_t mtime;     /* last modified, seconds since 1970 (Windows:
			      the last write time) */
	int64_t mtime_ns;  /* the same, in nanoseconds since 1970 */
	int64_t ctime_ns;  /* its status last changed, nanoseconds since
			      1970 (Windows: its creation time) */
};
#define OS_S_IFMT 0170000u
#define OS_S_IFLNK 0120000u
#define OS_S_IFREG 0100000u
#define OS_S_ISVTX 01000u
#define OS_S_ISLNK(m) (((m) & OS_S_IFMT) == OS_S_IFLNK)
#define OS_UID_OTHER 0xfffffffeu /* Windows: an owner that is no one above */

/* The effective uid (Windows: a constant standing for the caller, never
 * 0: the command never runs as "root" there either). */
uint32_t os_euid(void);
/* The real uid (Windows: the same constant). */
uint32_t os_ruid(void);
/* May this process's groups write what gid owns?  (Windows: no groups in
 * the mode, always 0: the DACL answer is in the mode bits.) */
int os_in_group(uint32_t gid);
/* The length of the root of the absolute path p: 1 for POSIX "/"; Windows
 * 3 for "C:/" (either separator) or the length of "//server/share/".  0
 * when p is not absolute.  The host spells a root's name without its
 * last separator ("" for "/", "C:") when it joins components to it. */
size_t os_root_len(const char *p);
/* Open the root of the absolute path p to walk from (POSIX: "/",
 * O_PATH|O_DIRECTORY|O_CLOEXEC).  The descriptor, or -1 with errno. */
int os_walk_root(const char *p);
/* Open the entry name (one component) of the directory open on dirfd to
 * walk through or to hold as a rule: its last component never followed
 * (a link is opened as the link), close-on-exec, open for nothing but
 * looking (O_PATH); want_dir: it must be a directory (ENOTDIR).  Windows:
 * no delete sharing, so neither it nor a directory above it can be
 * renamed while the descriptor is open.  The descriptor, or -1, errno. */
int os_walk_at(int dirfd, const char *name, int want_dir);
/* The status of fd; of dirfd's entry name, a link not followed; of path,
 * links followed.  0, or -1 with errno. */
int os_fstat(int fd, struct os_stat *st);
int os_fstat_at(int dirfd, const char *name, struct os_stat *st);
int os_stat_path(const char *path, struct os_stat *st);
/* What the link open on fd (os_walk_at) holds; what the link name in the
 * directory dirfd holds.  Heap, or NULL with errno (ENAMETOOLONG,
 * ENOMEM, EINVAL when it is not a link). */
char *os_link_read(int fd);
char *os_link_read_at(int dirfd, const char *name);
/* A second descriptor of fd, close-on-exec, >= 3 where that matters. */
int os_fd_dup(int fd);
/* The bytes an unprivileged writer may still use on the filesystem of the
 * file open on fd (POSIX fstatvfs f_bavail x f_frsize; Windows the
 * volume's free bytes for the caller).  0, or -1 with errno. */
int os_free_bytes(int fd, uint64_t *bytes);
/* The absolute name the system gives the file open on fd now (Linux
 * /proc/self/fd/N read back; Windows the handle's final path, '/'
 * separated), or NULL when it cannot say. */
char *os_fd_real_path(int fd);
/* Make the directory name (mode: POSIX permission bits; Windows: its
 * parent's inheritable DACL) in the directory open on dirfd.  0, or -1
 * with errno (EEXIST). */
int os_mkdir_at(int dirfd, const char *name, unsigned mode);
/* May this process write dirfd's entry name (dirfd itself for "";
 * the kernel's answer, a link not followed)?  1 yes, 0 no, -1 the
 * platform cannot tell (then the mode bits decide). */
int os_may_write_at(int dirfd, const char *name);
/* May this process execute the file open on fd; the file at path (links
 * followed, not a directory)?  1 or 0. */
int os_fd_executable(int fd);
int os_path_executable(const char *path);
/* The absolute name of path with every link resolved (realpath), for
 * messages; the working directory, '/' separated.  Heap or NULL. */
char *os_real_path(const char *path);
char *os_cwd(void);
/* What a command's name found on PATH may end in, tried in order, NULL-
 * terminated: POSIX only "" (the name itself); Windows, for a name with
 * no extension, PATHEXT's default order (".com", ".exe", ".bat", ".cmd"),
 * else "". */
const char *const *os_exe_suffixes(const char *name);
/* The separator of the PATH variable: ':' (Windows ';'). */
char os_path_list_sep(void);
/* Is host an IPv4 (v6 0) literal in 127/8, or an IPv6 (v6 1) literal
 * that is the loopback?  1 or 0 (not a literal: 0). */
int os_ip_loopback(const char *host, int v6);
/* inet_pton(3) of the IPv4 (v6 0: the four dotted decimals only) or
 * IPv6 (v6 1) literal s into out (network order; 4 or 16 bytes used).
 * 1 when s is one, else 0. */
int os_inet_pton(const char *s, int v6, unsigned char out[16]);

/* The parent of the directory open on fd ("..", as os_walk_at opens a
 * directory; the root's parent is the root); the directory at path,
 * links followed.  The descriptor, or -1 with errno. */
int os_walk_parent(int fd);
int os_open_dir(const char *path);
/* Call fn(arg, path) for every shared library (Windows: DLL) mapped into
 * this process now, by its absolute path; fn's nonzero stops and is
 * returned.  0, or the nonzero. */
int os_loaded_libs(int (*fn)(void *arg, const char *path), void *arg);

/* The path p in the host's spelling, heap (NULL: out of memory): POSIX a
 * copy; Windows '\\' as '/' (the host speaks '/'; Win32 takes both). */
char *os_path_normal(const char *p);
/* The variable that names the user's home directory: "HOME"; Windows
 * "USERPROFILE". */
const char *os_home_var(void);

/* Do this platform's places keep run names as lock files in a directory
 * of the user's (nsplace's run-name directory, spec §13 "Run names",
 * which the own-files check keeps out of the wall's reach)?  POSIX 1;
 * Windows 0: jobobject's scratch names are exclusive directories in the
 * temp directory, no lock file a read could hold. */
int os_run_name_locks(void);

/* Does `run` take the Windows job's flags here (reference section 8:
 * --scratch <dir>, --place job|wsb, --memory <size>, --cpu <1..100>)?
 * POSIX 0: --scratch and --place wsb are refused, the rest accepted and
 * ignored with a NOTE; Windows 1: they go to the place and the wall
 * (ABI 1.3: ns_place_req.parent, ns_policy.cpu_percent, the job's memory
 * limit), each refused where the module cannot keep it. */
int os_run_job_flags(void);

/* The command `policy` derives the roots from when none is given: found
 * on PATH by its name (argv[0]), NULL-terminated.  POSIX "sh -c true";
 * Windows "cmd.exe /c exit". */
const char *const *os_probe_command(void);

/* ---- copying a place's files out (run --out: run/handoff.c) ----------- */

/* Open the entry name of the directory open on dirfd to read it: a
 * regular file's bytes (read()) or, want_dir (then ENOTDIR for anything
 * else) or not, a directory's entries (os_dir_names); its last component
 * never followed (ELOOP), no blocking open (a FIFO), close-on-exec;
 * Windows: no write or delete sharing, binary.  The descriptor, or -1. */
int os_open_read_at(int dirfd, const char *name, int want_dir);
/* The directory at the absolute path, opened to read its entries and to
 * make and remove entries in it: its last component never followed
 * (ELOOP; the caller resolved the components above), close-on-exec;
 * Windows: no delete sharing, so it cannot be renamed while open.  The
 * descriptor, or -1 with errno. */
int os_open_readdir(const char *path);
/* Create, or truncate, the entry name of the directory open on dirfd for
 * writing (mode: POSIX permission bits; Windows: the inherited DACL),
 * never through a link (ELOOP); close-on-exec, binary.  The descriptor,
 * or -1 with errno. */
int os_create_at(int dirfd, const char *name, unsigned mode);
/* Set fd's permission bits (POSIX fchmod; Windows: the DACL is the
 * parent's, nothing to set).  0, or -1 with errno. */
int os_fchmod(int fd, unsigned mode);
/* Set the permission bits of the entry name of the directory open on
 * dirfd, never through a link (POSIX fchmodat with AT_SYMLINK_NOFOLLOW: a
 * link is EOPNOTSUPP; Windows: nothing to set, 0).  0, or -1 with errno. */
int os_fchmod_at(int dirfd, const char *name, unsigned mode);
/* Remove the entry name of the directory open on dirfd (is_dir: an empty
 * directory).  0, or -1 with errno. */
int os_unlink_at(int dirfd, const char *name, int is_dir);
/* Rename the entry from of the directory open on dirfd to to in the same
 * directory, replacing nothing that exists (POSIX renameat replaces an
 * empty directory or a file: the callers first make sure to is free;
 * Windows never replaces).  0, or -1 with errno. */
int os_rename_at(int dirfd, const char *from, const char *to);

/* ---- terminals (policy/ttys.c) ----------------------------------------- */

/* Device numbers: the platform's makedev, major, minor. */
uint64_t os_dev_make(unsigned ma, unsigned mi);
unsigned os_dev_major(uint64_t dev);
unsigned os_dev_minor(uint64_t dev);
/* Is fd a terminal this layer can name (a character device, isatty, and
 * the kernel says which terminal: Linux TIOCGDEV)?  0 with *dev that
 * terminal, *st fd's status and *acc its TTY_ACC_* (1 read, 2 write);
 * -1 not one (or the platform cannot say: darwin, Windows, whose console
 * is a handle the child inherits, never a name). */
int os_tty_probe(int fd, uint64_t *dev, struct os_stat *st, int *acc);
/* The terminal that controls this process (open /dev/tty O_NOCTTY, never
 * acquiring one): 1 with *dev, 0 none or cannot say. */
int os_ctty_dev(uint64_t *dev);
/* Open the absolute path, its last component not followed, as
 * os_walk_at opens an entry.  The descriptor, or -1 with errno. */
int os_open_nofollow(const char *path);

/* ---- this platform ----------------------------------------------------- */

/* The config section of this platform: "linux", "darwin" or "windows". */
const char *os_platform(void);
/* The machine as release archives name it: "amd64", "arm64", ... */
const char *os_arch(void);

/* The words with which root runs a command as another user, no
 * supplementary group kept (the as_root refusal's line): each word is
 * `text`, followed by the user's uid when `id` is 'u', its gid when 'g';
 * the list ends at a NULL text.  NULL where the tool never runs as root
 * (windows: os_euid() is never 0).  linux: setpriv --reuid=<uid>
 * --regid=<gid> --clear-groups --; darwin: sudo -u #<uid> --. */
struct os_as_user_word {
	const char *text;
	char id;
};
const struct os_as_user_word *os_as_user(void);

#endif
