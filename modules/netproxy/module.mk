# SPDX-License-Identifier: MIT
# netproxy.so -- the proxy role (NS_ROLE_PROXY): the filtering HTTP/SOCKS5
# proxy behind --net-allow, walled in its own process.  The parsers and
# the decision are portable (np_http, np_socks, np_tls, np_match); the
# self-wall and the relay's copy are per platform: *_linux.c (rlimits,
# Landlock, seccomp, splice) or *_darwin.c (rlimits, read/write), picked
# by HOST_OS so that check-portable compiles the darwin set.
netproxy_OS := $(if $(filter darwin,$(HOST_OS)),darwin,linux)
netproxy_SRC := $(filter-out %_linux.c %_darwin.c,\
	$(sort $(wildcard modules/netproxy/*.c))) \
	$(sort $(wildcard modules/netproxy/*_$(netproxy_OS).c))
netproxy_LIBS := -lpthread
netproxy_PLATFORMS := Linux Darwin
netproxy_KIT := nk_say
