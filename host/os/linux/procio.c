/* SPDX-License-Identifier: MIT */
/* procio.c -- descriptors and signals between the tool's processes on
 * linux (os/os.h "processes"), in place of os/posix/procio.c: pipe2,
 * SOCK_SEQPACKET with SOCK_CLOEXEC and MSG_CMSG_CLOEXEC (each message
 * whole, close-on-exec from its first moment), sigtimedwait on a blocked
 * SIGCHLD, and prctl's child subreaper and parent-death signal. */
#include "os/os.h"
#include "os/posix/posix.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

int
os_pipe(int fds[2])
{
	return posix_fd(pipe2(fds, O_CLOEXEC));
}

int
os_msg_pair(int sv[2])
{
	return posix_fd(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
}

int
os_msg_send(int sock, const void *buf, size_t len, int fd)
{
	struct iovec iov = { (void *)buf, len };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr mh;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (fd >= 0) {
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
	while (sendmsg(sock, &mh, MSG_NOSIGNAL) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

int
os_msg_recv(int sock, void *buf, size_t len, int *fd)
{
	struct iovec iov = { buf, len };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr mh;
	ssize_t n;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	*fd = -1;
	n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	if (n == 0)
		errno = ECONNRESET; /* the peer is gone */
	if (n != (ssize_t)len)
		return -1;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c != NULL;
	     c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	return 0;
}

void
os_sigchld_block(void)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
}

void
os_sigchld_wait(long long ns)
{
	struct timespec ts;
	sigset_t chld;

	if (ns < 0)
		ns = 0;
	ts.tv_sec = (time_t)(ns / 1000000000LL);
	ts.tv_nsec = (long)(ns % 1000000000LL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	(void)sigtimedwait(&chld, NULL, &ts);
}

int
os_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

int
os_die_with_parent(void)
{
	return prctl(PR_SET_PDEATHSIG, SIGKILL);
}

void
os_close_from(int lowfd)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)lowfd, ~0u, 0u) == 0)
		return;
#endif
	posix_close_each_from(lowfd);
}
