# SPDX-License-Identifier: MIT
# nftegress.so -- the egress role on linux: the audited plan text into one
# nftables netlink batch (libnftnl + libmnl only), read back, dropped.
# The plan line grammar is the public api/ns_egress_plan.h (a single-header
# library); ne_plan.c compiles the module's own copy.  No host sources.
nftegress_SRC := modules/nftegress/nftegress.c modules/nftegress/ne_codec.c \
	modules/nftegress/ne_nl.c modules/nftegress/ne_plan.c
nftegress_LIBS := -lnftnl -lmnl
nftegress_PLATFORMS := Linux
nftegress_KIT := nk_say
