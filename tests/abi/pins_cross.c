/* SPDX-License-Identifier: MIT */
/* pins_cross.c -- compiled (never run) by tests/abi/run.sh for another
 * target: the layout pins hold there, and there are pins there. */
#include "../unit/abi_pins.h"

_Static_assert(PINNED, "no layout pins for this target: add them to "
			"tests/unit/abi_pins.h");
