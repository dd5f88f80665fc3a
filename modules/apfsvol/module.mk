# SPDX-License-Identifier: MIT
# apfsvol.so -- the macOS place: one APFS volume per run, made and deleted
# with diskutil.  Portable POSIX C (fork/execve of absolute tool paths), so
# it also builds on Linux, where its suite drives it against fake tools.
apfsvol_SRC := $(sort $(wildcard modules/apfsvol/*.c))
apfsvol_LIBS :=
