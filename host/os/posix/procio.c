/* SPDX-License-Identifier: MIT */
/* procio.c -- descriptors and signals between the tool's processes, in
 * plain POSIX (os/os.h "processes"): what darwin has, and what the Linux
 * build with the process-group model (make PROCMODEL=pgroup, the pgmodel
 * test build) runs on Linux so that this file is exercised there too.
 * The Linux layer's own os/linux/procio.c replaces it in the default
 * Linux build (pipe2, SOCK_SEQPACKET, MSG_CMSG_CLOEXEC, sigtimedwait,
 * prctl): the Makefile builds a platform file in place of the os/posix/
 * file of the same name.
 *
 * Without SOCK_SEQPACKET for AF_UNIX (macOS has none: EPROTONOSUPPORT) a
 * message channel is a stream whose messages are all of one fixed length
 * (run's struct kmsg), read and written whole; a descriptor passed rides
 * on the first byte.  Without the atomic close-on-exec flags (pipe2,
 * SOCK_CLOEXEC, MSG_CMSG_CLOEXEC) the flag is set right after: the host
 * is single-threaded, so no fork can come in between.  Without
 * sigtimedwait the wait for a SIGCHLD is a pselect() with SIGCHLD
 * unblocked for its duration alone (a real system call on XNU, so the
 * mask change and the sleep are one step) and a handler that does
 * nothing, so the signal interrupts it. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static int
cloexec2(int fds[2])
{
	if (os_fd_cloexec(fds[0]) != 0 || os_fd_cloexec(fds[1]) != 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		errno = e;
		return -1;
	}
	return 0;
}

int
os_pipe(int fds[2])
{
	if (posix_fd(pipe(fds)) != 0)
		return -1;
	return cloexec2(fds);
}

int
os_msg_pair(int sv[2])
{
	if (posix_fd(socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) != 0)
		return -1;
	if (cloexec2(sv) != 0)
		return -1;
#ifdef SO_NOSIGPIPE
	{
		int one = 1;

		/* a peer gone is an error, never a SIGPIPE (darwin) */
		(void)setsockopt(sv[0], SOL_SOCKET, SO_NOSIGPIPE, &one,
				 sizeof(one));
		(void)setsockopt(sv[1], SOL_SOCKET, SO_NOSIGPIPE, &one,
				 sizeof(one));
	}
#endif
	return 0;
}

int
os_msg_send(int sock, const void *buf, size_t len, int fd)
{
	const char *p = buf;
	size_t done = 0;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;

	while (done < len) {
		struct iovec iov = { (void *)(p + done), len - done };
		struct msghdr mh;
		ssize_t n;

		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		if (fd >= 0 && done == 0) {
			struct cmsghdr *c;

			memset(&u, 0, sizeof(u));
			mh.msg_control = u.buf;
			mh.msg_controllen = sizeof(u.buf);
			c = CMSG_FIRSTHDR(&mh);
			c->cmsg_level = SOL_SOCKET;
			c->cmsg_type = SCM_RIGHTS;
			c->cmsg_len = CMSG_LEN(sizeof(int));
			memcpy(CMSG_DATA(c), &fd, sizeof(int));
		}
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* The descriptors a message carried: the first kept (close-on-exec), any
 * other closed. */
static void
take_fds(struct msghdr *mh, int *fd)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c != NULL;
	     c = CMSG_NXTHDR(mh, c)) {
		size_t k;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int got;

			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (*fd < 0 && os_fd_cloexec(got) == 0)
				*fd = got;
			else
				close(got);
		}
	}
}

int
os_msg_recv(int sock, void *buf, size_t len, int *fd)
{
	char *p = buf;
	size_t done = 0;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;

	*fd = -1;
	while (done < len) {
		struct iovec iov = { p + done, len - done };
		struct msghdr mh;
		ssize_t n;

		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof(u.buf);
		n = recvmsg(sock, &mh, 0);
		if (n < 0 && errno == EINTR && done > 0)
			continue; /* never leave half a message behind */
		if (n <= 0) {
			if (n == 0)
				errno = ECONNRESET; /* the peer is gone */
			break;
		}
		take_fds(&mh, fd);
		done += (size_t)n;
	}
	if (done == len)
		return 0;
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	return -1;
}

static void
sigchld_nothing(int sig)
{
	(void)sig;
}

void
os_sigchld_block(void)
{
	struct sigaction sa;
	sigset_t chld;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sigchld_nothing;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
}

void
os_sigchld_wait(long long ns)
{
	struct timespec ts;
	sigset_t during;

	if (ns < 0)
		ns = 0;
	ts.tv_sec = (time_t)(ns / 1000000000LL);
	ts.tv_nsec = (long)(ns % 1000000000LL);
	sigprocmask(SIG_SETMASK, NULL, &during);
	sigdelset(&during, SIGCHLD);
	(void)pselect(0, NULL, NULL, NULL, &ts, &during);
}

int
os_subreaper(void)
{
	errno = ENOSYS;
	return -1;
}

int
os_die_with_parent(void)
{
	errno = ENOSYS;
	return -1;
}

void
os_close_from(int lowfd)
{
	posix_close_each_from(lowfd);
}
