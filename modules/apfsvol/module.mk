# SPDX-License-Identifier: MIT
# apfsvol.so -- the macOS place: one APFS volume per run, made and deleted
# with diskutil.  Portable POSIX C (fork/execve of absolute tool paths): on
# Linux it is not a module (not in the module directory, not installed);
# it builds as the test artifact $(B)/tests/modules/apfsvol.so, which its
# suite and tests/integration/t_apfs.sh drive against fake tools.
apfsvol_SRC := $(sort $(wildcard modules/apfsvol/*.c))
apfsvol_LIBS :=
apfsvol_PLATFORMS := Darwin
apfsvol_TEST_SO := 1
apfsvol_KIT := nk_run nk_say
