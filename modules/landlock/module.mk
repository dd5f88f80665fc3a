# SPDX-License-Identifier: MIT
# landlock.so -- the Linux wall.  Links libc only.
landlock_SRC := $(sort $(wildcard modules/landlock/*.c))
landlock_LIBS :=
landlock_PLATFORMS := Linux
