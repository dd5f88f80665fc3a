/* SPDX-License-Identifier: MIT */
/* darwin_poison.h -- `make check-portable` (infra/check-portable.sh) forces
 * this header into every host source the darwin build compiles (and the
 * darwin modules' sources), compiled on Linux against glibc in its POSIX
 * mode (-U_GNU_SOURCE -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700
 * -D_DEFAULT_SOURCE).  That mode already hides most GNU extensions (O_PATH,
 * pipe2, accept4 ... are then simply undeclared); what glibc still declares
 * there but macOS 11 (Big Sur) and later do not have is poisoned below, so
 * a use above host/os/ is a compile error on Linux, in CI, before any Mac
 * sees it.  The Linux-only headers (<sys/prctl.h>, <linux/...>, ...) are
 * refused by the check's stub include directory, not here.
 *
 * Written from Apple's public man pages and the XNU/Libc open-source
 * headers (no SDK was used): each entry says why it is here.  A name is
 * poisoned when macOS lacks it, or has it with another meaning or
 * signature (statfs, sendfile, qsort_r, syscall numbers), so that code
 * written for Linux would compile there and do something else.  A few are
 * here conservatively (marked "not verified"): poisoning one that macOS
 * does have only forces a seam in host/os/, never a wrong build.
 *
 * What macOS has and stays allowed: posix_spawn, getentropy (256 bytes a
 * call), arc4random_buf, openat and the *at family (10.10), fdopendir,
 * F_DUPFD_CLOEXEC, O_CLOEXEC, O_DIRECTORY, O_NOFOLLOW, waitid with
 * WNOWAIT, clock_gettime(CLOCK_MONOTONIC) (10.12), MSG_NOSIGNAL (the
 * XNU header defines it at the POSIX 2008 level; host/os/ still uses it
 * only where it is defined), flock, mkdtemp, asprintf/vasprintf (declared
 * below: glibc shows them only under _GNU_SOURCE, macOS always). */
#ifndef NS_DARWIN_POISON_H
#define NS_DARWIN_POISON_H

/* asprintf and vasprintf: in macOS's <stdio.h> (BSD), in glibc's only
 * with _GNU_SOURCE.  Declared so the check does not report them. */
#include <stdarg.h>
int asprintf(char **strp, const char *fmt, ...);
int vasprintf(char **strp, const char *fmt, va_list ap);

/* The headers that declare a poisoned name are included first: a name
 * declared before the poison is no error, its use afterwards is; a name
 * that is a macro there is #undef'd first (poisoning a macro warns). */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- descriptors and files ---------------------------------------- */
/* O_PATH (open for looking only), O_TMPFILE, O_NOATIME, O_DIRECT,
 * AT_EMPTY_PATH (act on the descriptor itself): Linux only; macOS has
 * O_SEARCH/O_EXEC (13+) and F_GETPATH instead. */
#undef O_PATH
#undef O_TMPFILE
#undef O_NOATIME
#undef O_DIRECT
#undef O_LARGEFILE
#pragma GCC poison O_PATH O_TMPFILE O_NOATIME O_DIRECT O_LARGEFILE
#undef AT_EMPTY_PATH
#undef AT_NO_AUTOMOUNT
#undef AT_STATX_SYNC_AS_STAT
#pragma GCC poison AT_EMPTY_PATH AT_NO_AUTOMOUNT AT_STATX_SYNC_AS_STAT
/* pipe2, dup3, accept4 and the SOCK_ and MSG_CMSG_ close-on-exec flags:
 * none on macOS (pipe + fcntl(F_SETFD) there: host/os/ os_pipe,
 * os_msg_pair). */
#undef SOCK_CLOEXEC
#undef SOCK_NONBLOCK
#pragma GCC poison pipe2 dup3 accept4 SOCK_CLOEXEC SOCK_NONBLOCK
#undef MSG_CMSG_CLOEXEC
#pragma GCC poison MSG_CMSG_CLOEXEC
/* close_range, memfd_create, fexecve, execvpe, renameat2, copy_file_range,
 * splice, vmsplice: Linux (or GNU) only; macOS's sendfile has another
 * signature. */
#pragma GCC poison close_range memfd_create fexecve execvpe renameat2
#pragma GCC poison copy_file_range splice vmsplice sendfile
/* posix_fallocate and posix_fadvise: POSIX, but not in macOS's libc. */
#pragma GCC poison posix_fallocate posix_fadvise
/* statfs/fstatfs: macOS has both in <sys/mount.h> with another struct
 * (f_type is no Linux magic number, f_fstypename names it): a caller
 * above os/ would compile and compare the wrong thing. */
#pragma GCC poison statfs fstatfs
/* getdents and the directory-stream internals. */
#pragma GCC poison getdents getdents64

/* ---- events and descriptors for signals, timers, processes ---------- */
/* epoll, signalfd, timerfd, eventfd, inotify, pidfd: Linux only (macOS:
 * kqueue, which the host does not use). */
#pragma GCC poison epoll_create epoll_create1 epoll_ctl epoll_wait
#pragma GCC poison epoll_pwait signalfd timerfd_create timerfd_settime
#pragma GCC poison timerfd_gettime eventfd inotify_init inotify_init1
#pragma GCC poison inotify_add_watch pidfd_open pidfd_send_signal
#pragma GCC poison pidfd_getfd
/* sigtimedwait, sigwaitinfo, sigqueue and the realtime signals: not on
 * macOS (its <signal.h> has sigwait only). */
#undef SIGRTMIN
#undef SIGRTMAX
#pragma GCC poison sigtimedwait sigwaitinfo sigqueue SIGRTMIN SIGRTMAX
#undef SIGPWR
#undef SIGSTKFLT
#undef SIGCLD
#pragma GCC poison SIGPWR SIGSTKFLT SIGCLD
/* POSIX timers and clock_nanosleep: not in macOS's libc. */
#pragma GCC poison timer_create timer_settime timer_gettime timer_delete
#pragma GCC poison clock_nanosleep
/* Linux clocks: macOS has CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW,
 * CLOCK_UPTIME_RAW, not these. */
#undef CLOCK_BOOTTIME
#undef CLOCK_MONOTONIC_COARSE
#pragma GCC poison CLOCK_BOOTTIME CLOCK_MONOTONIC_COARSE
#undef CLOCK_REALTIME_COARSE
#undef CLOCK_TAI
#pragma GCC poison CLOCK_REALTIME_COARSE CLOCK_TAI
/* ppoll: GNU/Linux (macOS has pselect). */
#pragma GCC poison ppoll

/* ---- processes ----------------------------------------------------- */
/* prctl (PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER) lives in
 * <sys/prctl.h>, refused by the stub directory; the constants too in case
 * another header drags them in. */
#undef PR_SET_PDEATHSIG
#undef PR_SET_CHILD_SUBREAPER
#pragma GCC poison prctl PR_SET_PDEATHSIG PR_SET_CHILD_SUBREAPER
/* sysinfo (<sys/sysinfo.h>, refused too). */
#pragma GCC poison sysinfo
/* syscall: macOS has a deprecated syscall() whose numbers are not
 * Linux's; SYS_ names are per kernel. */
#pragma GCC poison syscall
/* namespaces, mounts, personality, capabilities, the aux vector,
 * CPU affinity: Linux only. */
#pragma GCC poison unshare setns clone clone3 pivot_root umount2
#pragma GCC poison personality getauxval sched_setaffinity
#pragma GCC poison sched_getaffinity sched_getcpu
/* getresuid and friends: not on macOS (getuid/geteuid there). */
#pragma GCC poison getresuid setresuid getresgid setresgid
/* clearenv: not in macOS's libc. */
#pragma GCC poison clearenv
/* dl_iterate_phdr (<link.h>, refused too): macOS walks dyld's images. */
#pragma GCC poison dl_iterate_phdr
/* prlimit: Linux only (setrlimit/getrlimit are POSIX). */
#pragma GCC poison prlimit
/* peer credentials: macOS has getpeereid and LOCAL_PEERCRED. */
#undef SO_PEERCRED
#undef SCM_CREDENTIALS
#pragma GCC poison SO_PEERCRED SCM_CREDENTIALS
/* Linux address families. */
#undef AF_NETLINK
#undef AF_PACKET
#pragma GCC poison AF_NETLINK AF_PACKET

/* ---- terminals ----------------------------------------------------- */
/* TIOCGDEV (which terminal a descriptor is) and TIOCLINUX: Linux only. */
#undef TIOCGDEV
#undef TIOCLINUX
#pragma GCC poison TIOCGDEV TIOCLINUX

/* ---- memory -------------------------------------------------------- */
#undef MAP_POPULATE
#undef MAP_GROWSDOWN
#undef MAP_LOCKED
#undef MAP_HUGETLB
#pragma GCC poison MAP_POPULATE MAP_GROWSDOWN MAP_LOCKED MAP_HUGETLB
#undef MADV_DONTDUMP
#undef MADV_DONTFORK
#pragma GCC poison MADV_DONTDUMP MADV_DONTFORK mremap

/* ---- randomness ---------------------------------------------------- */
/* getrandom: Linux (macOS: getentropy, at most 256 bytes a call, and
 * arc4random_buf; host/os/ os_random_bytes). */
#undef GRND_NONBLOCK
#undef GRND_RANDOM
#pragma GCC poison getrandom GRND_NONBLOCK GRND_RANDOM

/* ---- C library extensions ------------------------------------------ */
/* qsort_r: macOS has one with the arguments in another order. */
#pragma GCC poison qsort_r
/* GNU string and name helpers macOS does not have. */
#pragma GCC poison strchrnul mempcpy rawmemchr memrchr
#pragma GCC poison get_current_dir_name canonicalize_file_name
#pragma GCC poison secure_getenv program_invocation_name
#pragma GCC poison program_invocation_short_name strerrordesc_np
#pragma GCC poison sigabbrev_np sigdescr_np explicit_bzero
/* reallocarray: in FreeBSD and glibc; not verified in macOS 11's libc. */
#pragma GCC poison reallocarray
/* st_atim, st_mtim, st_ctim: macOS spells them st_atimespec ... */
#pragma GCC poison st_atim st_mtim st_ctim

#endif
