# SPDX-License-Identifier: MIT
# seatbelt.dylib -- the macOS wall: a generated SBPL profile run through
# /usr/bin/sandbox-exec.  Portable POSIX C: on Linux it builds only as a
# test artifact ($(B)/tests/modules/seatbelt.so, -DSB_TESTING: the helper
# and log paths become options), never into the module directory.
seatbelt_SRC := $(sort $(wildcard modules/seatbelt/*.c))
seatbelt_LIBS :=
seatbelt_PLATFORMS := Darwin
seatbelt_SUFFIX := .dylib
seatbelt_TEST_SO := 1
seatbelt_TEST_DEFS := -DSB_TESTING
seatbelt_KIT := nk_run nk_say
