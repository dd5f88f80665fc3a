# SPDX-License-Identifier: MIT
# jobobject.dll -- the Windows wall (a Job Object, a restricted low
# integrity token) and place (a per-run scratch directory), one unit.
# Cross-built with mingw-w64 by `make windows` into build-win/; on any other
# platform only its portable core (jo_core.c) builds, for its CUnit suite.
jobobject_PLATFORMS := Windows
jobobject_SRC := $(sort $(wildcard modules/jobobject/*.c))
jobobject_PORTABLE_SRC := modules/jobobject/jo_core.c
jobobject_LIBS :=
jobobject_WIN_LIBS := -ladvapi32
jobobject_KIT := nk_say nk_utf16
