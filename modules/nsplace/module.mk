# SPDX-License-Identifier: MIT
# nsplace.so -- the Linux place: a size-capped tmpfs in private mount and
# PID namespaces that dies with the run.  Links libc only.
nsplace_SRC := $(sort $(wildcard modules/nsplace/*.c))
nsplace_LIBS :=
nsplace_PLATFORMS := Linux
nsplace_KIT := nk_say
