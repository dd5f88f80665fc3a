/* SPDX-License-Identifier: MIT */
/* ns_auditctl.c -- the kernel's audit switch, for tests that need the
 * Landlock audit records (root: CAP_AUDIT_CONTROL).
 *
 *   ns_auditctl get       print 1 when audit is on, 0 when off
 *   ns_auditctl on|off    switch it, then print the new state
 *
 * Exit 0, or 1 when the kernel refused or did not answer. */
#include <linux/audit.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct req {
	struct nlmsghdr h;
	struct audit_status s;
};

static int
ask(int fd, int type, const struct audit_status *s, struct audit_status *out)
{
	struct req q, r;
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	ssize_t n;

	memset(&q, 0, sizeof(q));
	q.h.nlmsg_len = NLMSG_LENGTH(s ? sizeof(*s) : 0);
	q.h.nlmsg_type = (unsigned short)type;
	q.h.nlmsg_flags = NLM_F_REQUEST | (s ? NLM_F_ACK : 0);
	q.h.nlmsg_seq = (unsigned)type;
	if (s)
		q.s = *s;
	if (sendto(fd, &q, q.h.nlmsg_len, 0, (struct sockaddr *)&k,
		   sizeof(k)) < 0)
		return -1;
	while (poll(&pf, 1, 1000) > 0) {
		n = recv(fd, &r, sizeof(r), 0);
		if (n < (ssize_t)sizeof(r.h))
			return -1;
		if (r.h.nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(&r.h);

			if (e->error != 0 || s == NULL)
				return -1;
			return 0; /* the ACK of a SET */
		}
		if (r.h.nlmsg_type == AUDIT_GET && out != NULL) {
			*out = r.s;
			return 0;
		}
	}
	return -1;
}

int
main(int argc, char **argv)
{
	struct audit_status s, got;
	int fd;

	if (argc != 2 || (strcmp(argv[1], "get") != 0 &&
			  strcmp(argv[1], "on") != 0 &&
			  strcmp(argv[1], "off") != 0)) {
		fprintf(stderr, "usage: ns_auditctl get|on|off\n");
		return 1;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0) {
		perror("ns_auditctl: socket");
		return 1;
	}
	if (strcmp(argv[1], "get") != 0) {
		memset(&s, 0, sizeof(s));
		s.mask = AUDIT_STATUS_ENABLED;
		s.enabled = strcmp(argv[1], "on") == 0;
		if (ask(fd, AUDIT_SET, &s, NULL) != 0) {
			fprintf(stderr, "ns_auditctl: AUDIT_SET refused\n");
			return 1;
		}
	}
	if (ask(fd, AUDIT_GET, NULL, &got) != 0) {
		fprintf(stderr, "ns_auditctl: AUDIT_GET refused\n");
		return 1;
	}
	printf("%u\n", got.enabled);
	close(fd);
	return 0;
}
