# SPDX-License-Identifier: MIT
# nova-sandbox -- one plain Makefile.
#
#   make                      build host + modules into build/ (install-shaped)
#   make MODULES="landlock"   build only the named modules
#   make check                unit suites + integration tests (see README)
#   make check-unit           CUnit suites only
#   make check-layers         host/ rooms include only downward
#   make check-portable       the darwin build's sources compile without a
#                             Linux-only call (infra/darwin_poison.h)
#   make check-denials        the denial corpus against --explain
#   make asan                 unit suites under ASan+UBSan (build-asan/)
#   make fuzz                 libFuzzer harnesses (clang), each run
#                             FUZZ_SECONDS from its seeds (build-fuzz/)
#   make bench                benchmarks (figures, never assertions);
#                             BEFORE=<builddir> adds another build, interleaved
#   make bench-quick          the same in a few rounds (= make bench QUICK=1)
#   make check-spdx           every source file carries the MIT SPDX line
#   make check-deps           infra/deps.sh's package groups: the demo names
#                             the build group only, infra/test all of them
#   make check-docs           every flag the man pages and README name is in
#                             the built binary's help (infra/check-docs.sh)
#   make check-abi            the public structs against api/abi/baseline.xml
#   make windows              jobobject.dll and the Wine test programs
#                             (mingw-w64) into build-win/
#   make check-windows        those under Wine (tests/windows/run.sh)
#   make install              PREFIX DESTDIR BINDIR LIBDIR MULTIARCH MODULEDIR
#                             SYSCONFDIR INCLUDEDIR PKGCONFIGDIR MANDIR
#                             DATADIR DOCDIR BASHCOMPDIR ZSHCOMPDIR; never
#                             overwrites an existing config file
#                             (INSTALLED_BY=debian: a build for the Debian
#                             packages, whose refusals name them)
#   make install-strip        the same with the binary and modules stripped
#   make uninstall            removes what install installed (a config file
#                             only when it is unchanged)
#
# Flags: CPPFLAGS, CFLAGS and LDFLAGS are honoured (dpkg-buildflags).
# Hardening is on by default (HARDEN=0 turns it off): PIE, full RELRO,
# BIND_NOW, -fstack-protector-strong, -fstack-clash-protection,
# -fcf-protection (x86) or -mbranch-protection (aarch64), and
# _FORTIFY_SOURCE=2 when optimizing.
# -Werror only with WERROR=1 (infra/test and CI set it).

# A target whose recipe fails is deleted, never left half-written.
.DELETE_ON_ERROR:

VERSION     := 0.1.0
# the module ABI's major: modules live in a directory of their own per major
# (<libdir>/nova-sandbox/<major>/), so two majors can be installed side by side
ABI_MAJOR   := $(shell sed -n 's/^\#define NS_BACKEND_ABI_MAJOR //p' api/ns_backend.h)
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
# MULTIARCH=x86_64-linux-gnu puts libraries in lib/<triplet> (Debian)
MULTIARCH   ?=
LIBDIR      ?= $(PREFIX)/lib$(if $(MULTIARCH),/$(MULTIARCH))
MODULEDIR   ?= $(LIBDIR)/nova-sandbox/$(ABI_MAJOR)
# /usr installs configure in /etc (FHS); any other prefix in <prefix>/etc
SYSCONFDIR  ?= $(if $(filter /usr /usr/,$(PREFIX)),/etc,$(PREFIX)/etc)
INCLUDEDIR  ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
DOCDIR      ?= $(DATADIR)/doc/nova-sandbox
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR  ?= $(DATADIR)/zsh/site-functions
DESTDIR     ?=
INSTALL     ?= install
STRIP       ?= strip

# The module directory as the binary finds it: relative to its own dir, so a
# build tree runs without installing and an install finds its modules.
# (GNU realpath; macOS's has no -m/--relative-to: perl's File::Spec there)
MODULEDIR_REL := $(shell realpath -m --relative-to=$(BINDIR) $(MODULEDIR) \
	2>/dev/null || perl -MFile::Spec -e \
	'print File::Spec->abs2rel($$ARGV[0], $$ARGV[1])' $(MODULEDIR) $(BINDIR))

# Every module directory with a module.mk builds by default; a packager
# picks with MODULES="landlock nftegress".  A module.mk may set
# <m>_PLATFORMS (uname -s values) to build only there.
UNAME_S := $(shell uname -s)
ALL_MODULES := $(notdir $(patsubst %/module.mk,%,$(wildcard modules/*/module.mk)))
MODULES ?= $(ALL_MODULES)

B       ?= build
# the build tree is install-shaped: modules sit where the binary looks
MODBUILD := $(patsubst $(CURDIR)/%,%,$(abspath $(B)/bin/$(MODULEDIR_REL)))
CC      ?= cc
WERROR  ?=
WARN    := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -Wshadow \
           -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla
# glibc shows its extensions with _GNU_SOURCE; macOS with _DARWIN_C_SOURCE
CSTD    := -std=c11 $(if $(filter Darwin,$(UNAME_S)),-D_DARWIN_C_SOURCE,-D_GNU_SOURCE)
OPT     ?= -O2 -g
SAN     ?=
CPPFLAGS ?=
CFLAGS  ?=
LDFLAGS ?=
HARDEN  ?= 1
# _FORTIFY_SOURCE needs optimization; a CPPFLAGS that sets it (dpkg) wins
OPTIMIZING = $(filter -O1 -O2 -O3 -Os -Og -Ofast -O,$(OPT) $(CFLAGS))
FORTIFY  = $(if $(OPTIMIZING),$(if $(findstring _FORTIFY_SOURCE,$(CPPFLAGS) \
           $(CFLAGS)),,-D_FORTIFY_SOURCE=2))
# control-flow protection where the target has it (hardening-check asks);
# Apple's clang names the machine arm64-apple-darwin*, not aarch64*
CC_MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
CF_PROTECT  = $(if $(filter x86_64% i686% i386%,$(CC_MACHINE)),-fcf-protection=full,\
              $(if $(filter aarch64% arm64%,$(CC_MACHINE)),-mbranch-protection=standard))
# Apple's clang takes -fstack-clash-protection as an unused argument (a
# warning, an error under WERROR): macOS probes its stacks itself
STACK_CLASH = $(if $(filter Darwin,$(UNAME_S)),,-fstack-clash-protection)
HARDEN_CFLAGS  = $(if $(filter 1,$(HARDEN)),$(FORTIFY) -fstack-protector-strong \
                 $(STACK_CLASH) $(CF_PROTECT))
# Apple's ld has no -z (it refuses undefined symbols in a dylib by default)
RELRO_NOW := $(if $(filter Darwin,$(UNAME_S)),,-Wl,-z,relro -Wl,-z,now)
HARDEN_LDFLAGS = $(if $(filter 1,$(HARDEN)),$(RELRO_NOW))
ALLCFLAGS = $(CSTD) $(WARN) $(HARDEN_CFLAGS) $(CPPFLAGS) $(OPT) $(SAN) \
            $(CFLAGS) -MMD -MP
# the binary (and every test program) is a PIE
EXE_CFLAGS  = $(if $(filter 1,$(HARDEN)),-fPIE)
EXE_LDFLAGS = $(if $(filter 1,$(HARDEN)),-pie) $(HARDEN_LDFLAGS)

HOST_DEFS := -DNS_VERSION='"$(VERSION)"' \
             -DNS_MODULEDIR_REL='"$(MODULEDIR_REL)"' \
             -DNS_SYSCONFDIR='"$(SYSCONFDIR)"'
# BENCH_PHASES=1: the bench's own build, with the wrap's phase exits
# (host/base/bench.h); make bench builds it into $(B)/phases.  Never a
# build to install.
ifeq ($(BENCH_PHASES),1)
HOST_DEFS += -DNS_BENCH_PHASES
endif

# host/ is rooms (docs/ARCHITECTURE.md): every room's files, and of os/ only
# the layer of the platform this builds for.
HOST_OS   ?= $(if $(filter Darwin,$(UNAME_S)),darwin,$(if $(filter Linux,$(UNAME_S)),linux,$(UNAME_S)))
HOST_ROOMS := base os proc conf module policy egress net wall run verbs
# The host's process model (host/proc/reaper.h): subreaper (Linux,
# proc/reaper.c: a child subreaper, PR_SET_PDEATHSIG) or pgroup
# (proc/pgreaper.c: the command's process group; darwin, which has
# neither).  PROCMODEL=pgroup on Linux builds the darwin model with the
# generic os/posix/procio.c (no pipe2, SOCK_SEQPACKET or sigtimedwait):
# the pgmodel test build (make pgmodel, tests/integration/t_pgmodel.sh).
PROCMODEL ?= $(if $(filter darwin,$(HOST_OS)),pgroup,subreaper)
HOST_OS_GENERIC ?= $(if $(filter pgroup,$(PROCMODEL)),procio.c)
HOST_MODEL_OUT := $(if $(filter pgroup,$(PROCMODEL)),host/proc/reaper.c,\
	host/proc/pgreaper.c)
# os/posix/: the part of the os layer every POSIX platform shares; a file
# of the platform's layer replaces the os/posix/ file of the same name
# (os/linux/procio.c: pipe2, SOCK_SEQPACKET, sigtimedwait, prctl), except
# those HOST_OS_GENERIC keeps generic (the process-group model's build,
# PROCMODEL below)
HOST_OS_PLAT := $(filter-out $(HOST_OS_GENERIC:%=host/os/$(HOST_OS)/%),\
	$(wildcard host/os/$(HOST_OS)/*.c))
HOST_POSIX := $(if $(filter linux darwin,$(HOST_OS)),$(filter-out \
	$(patsubst host/os/$(HOST_OS)/%,host/os/posix/%,$(HOST_OS_PLAT)),\
	$(wildcard host/os/posix/*.c)))
# host/verbs/unbuilt.c is the refusal of the verbs a platform leaves out
# (the Windows list below), host/proc/noreaper.c the Windows half of
# the wrap's process model and host/run/nokeeper.c the refusal of run's
# forked flow there; never built beside the real ones.
HOST_UNBUILT := host/verbs/unbuilt.c host/run/nokeeper.c \
	host/proc/noreaper.c host/net/netnone.c host/wall/egressnone.c \
	$(HOST_MODEL_OUT)
HOST_SRC  := $(filter-out $(HOST_UNBUILT),$(sort $(wildcard host/*.c \
                $(HOST_ROOMS:%=host/%/*.c)) $(HOST_OS_PLAT) $(HOST_POSIX)))
HOST_OBJ  := $(HOST_SRC:%.c=$(B)/obj/%.o)
HOST_LIB_OBJ := $(filter-out $(B)/obj/host/main.o,$(HOST_OBJ))
# macOS: Homebrew's iniparser (brew install iniparser), by its prefix
INIPARSER_PREFIX ?= $(if $(filter Darwin,$(UNAME_S)),$(shell brew --prefix \
	iniparser 2>/dev/null || echo /usr/local))
INIPARSER_CFLAGS ?= $(if $(INIPARSER_PREFIX),-I$(INIPARSER_PREFIX)/include \
	-I$(INIPARSER_PREFIX)/include/iniparser,-I/usr/include/iniparser)
# iniparser is linked statically by default: every run of the tool pays for
# each shared library it loads (open, mmap, relocations, page faults; about
# 60 us of the wrap's start, measured in make bench), and the config reader
# is a few KB.  INIPARSER_STATIC=0 links the shared library instead (a
# distribution that wants one copy to patch).
INIPARSER_STATIC ?= 1
# -l:<file> is GNU ld's; Apple's ld takes the archive by its path
INIPARSER_A      ?= $(INIPARSER_PREFIX)/lib/libiniparser.a
INIPARSER_LIBS   ?= $(if $(filter 1,$(INIPARSER_STATIC)),$(if \
	$(INIPARSER_PREFIX),$(INIPARSER_A),-l:libiniparser.a),$(if \
	$(INIPARSER_PREFIX),-L$(INIPARSER_PREFIX)/lib) -liniparser)
HOST_LIBS := -ldl $(INIPARSER_LIBS)
HOST_INC  := -Ihost -Iapi -Iinfra $(INIPARSER_CFLAGS)

# the fixtures (ELF modules edited by hand), the helpers and the attack
# suite are Linux programs: built where the integration and escape suites
# run
LINUX_TEST_PROGS := $(if $(filter Darwin,$(UNAME_S)),,fixtures helpers escape)
all: $(B)/bin/nova-sandbox modules test-modules $(LINUX_TEST_PROGS)

# ---- host -------------------------------------------------------------
$(B)/obj/host/%.o: host/%.c $(B)/.flags
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(EXE_CFLAGS) $(HOST_DEFS) $(HOST_INC) -c $< -o $@

$(B)/bin/nova-sandbox: $(HOST_OBJ)
	@mkdir -p $(@D)
	$(CC) $(SAN) $(CFLAGS) $(EXE_LDFLAGS) $(LDFLAGS) -o $@ $^ $(HOST_LIBS)

# Rebuild when the compiled-in directories change.
$(B)/.flags: FORCE
	@mkdir -p $(@D)
	@echo '$(HOST_DEFS) $(SAN) $(OPT) $(CPPFLAGS) $(CFLAGS) $(HARDEN_CFLAGS) $(WERROR)' | cmp -s - $@ || \
		echo '$(HOST_DEFS) $(SAN) $(OPT) $(CPPFLAGS) $(CFLAGS) $(HARDEN_CFLAGS) $(WERROR)' > $@
	@echo '$(MODULEDIR_REL)' | cmp -s - $(B)/moduledir-rel || \
		echo '$(MODULEDIR_REL)' > $(B)/moduledir-rel

# ---- modules: each modules/<m>/module.mk sets <m>_SRC and <m>_LIBS -----
# and may set <m>_PLATFORMS (the `uname -s` values it is a module for; unset:
# everywhere), <m>_SUFFIX (.so unless set; seatbelt is seatbelt.dylib, the
# name the darwin config uses), <m>_TEST_SO := 1 (a portable core: also
# built as $(B)/tests/modules/<m>.so on every platform, with <m>_TEST_DEFS,
# for the integration tests' fakes -- never installed), <m>_TEST_DEFS, and
# <m>_KIT: the files of the module kit it links (modules/common/<name>.c,
# built hidden into the module like its own sources: never exported, not
# part of the ABI; docs/ARCHITECTURE.md "modules/common").
# A module off its platform is not built into $(B)/lib/nova-sandbox and
# not installed, whatever MODULES says; its suites and test artifact still
# build where it has <m>_TEST_SO.
MOD_CFLAGS = $(ALLCFLAGS) -fPIC -fvisibility=hidden -Iapi -Iinfra -Imodules
# A module for another platform (<m>_PLATFORMS without this uname -s) and
# without <m>_TEST_SO builds only its <m>_PORTABLE_SRC here, for its own
# suites (jobobject: the Win32 parts cannot compile elsewhere).
MOD_LDFLAGS := $(if $(filter Darwin,$(UNAME_S)),,-Wl,-z,defs)
define module_rules
include modules/$(1)/module.mk
$(1)_SRC += $$($(1)_KIT:%=modules/common/%.c)
$(1)_SUFFIX ?= .so
$(1)_HERE := $$(if $$($(1)_PLATFORMS),$$(filter $(UNAME_S),$$($(1)_PLATFORMS)),yes)
$(1)_OBJ := $$($(1)_SRC:%.c=$(B)/obj/%.pic.o)
ifneq ($$($(1)_HERE),)
$(MODBUILD)/$(1)$$($(1)_SUFFIX): $$($(1)_OBJ)
	@mkdir -p $$(@D)
	$$(CC) $(SAN) $(CFLAGS) -shared $(MOD_LDFLAGS) $(HARDEN_LDFLAGS) \
		$(LDFLAGS) -o $$@ $$^ $$($(1)_LIBS)
MODULE_SOS += $(MODBUILD)/$(1)$$($(1)_SUFFIX)
MODULE_DROPINS += $(wildcard modules/$(1)/dropin.conf)
endif
ifeq ($$($(1)_TEST_SO),1)
$(1)_TOBJ := $$($(1)_SRC:%.c=$(B)/obj-test/%.pic.o)
$$($(1)_TOBJ): TEST_DEFS := $$($(1)_TEST_DEFS)
$(B)/tests/modules/$(1).so: $$($(1)_TOBJ)
	@mkdir -p $$(@D)
	$$(CC) $(SAN) $(CFLAGS) -shared $(MOD_LDFLAGS) $(LDFLAGS) -o $$@ $$^ $$($(1)_LIBS)
TEST_SOS += $(B)/tests/modules/$(1).so
$(1)_SUITE_OBJ := $$($(1)_TOBJ)
else ifneq ($$($(1)_HERE),)
$(1)_SUITE_OBJ := $$($(1)_OBJ)
else
$(1)_OBJ := $$($(1)_PORTABLE_SRC:%.c=$(B)/obj/%.pic.o)
.SECONDARY: $$($(1)_OBJ)
$(1)_SUITE_OBJ := $$($(1)_OBJ)
endif
endef
$(foreach m,$(MODULES),$(eval $(call module_rules,$(m))))

# How this build is installed, for the line a missing module's refusal
# ends with (host/module/loader.c): INSTALLED_BY=source (make install:
# `make install MODULES=<m>`, with PREFIX when it is not the default) or
# debian (debian/rules: `apt install nova-sandbox-<m>`, one package per
# module), for the module files this build installs (comma-separated: no
# define holds a space, infra/check-portable.sh splits them on spaces).
INSTALLED_BY ?= source
comma := ,
HOST_DEFS += -DNS_INSTALLED_BY='"$(INSTALLED_BY)"' \
	     -DNS_INSTALL_FILES='"$(subst $() ,$(comma),$(strip $(notdir $(MODULE_SOS))))"' \
	     -DNS_INSTALL_PREFIX='"$(filter-out /usr/local,$(PREFIX))"'

$(B)/obj/%.pic.o: %.c $(B)/.flags
	@mkdir -p $(@D)
	$(CC) $(MOD_CFLAGS) -c $< -o $@

$(B)/obj-test/%.pic.o: %.c
	@mkdir -p $(@D)
	$(CC) $(MOD_CFLAGS) $(TEST_DEFS) -c $< -o $@

modules: $(MODULE_SOS)

# the portable cores as test artifacts (never installed)
test-modules: $(TEST_SOS)

# ---- test fixtures: one refusal-case module per file -------------------
FIX_SRC := $(sort $(wildcard tests/fixtures/modules/*.c))
FIX_SOS := $(FIX_SRC:tests/fixtures/modules/%.c=$(B)/tests/fixtures/%.so)
$(B)/tests/fixtures/%.so: tests/fixtures/modules/%.c
	@mkdir -p $(@D)
	$(CC) $(MOD_CFLAGS) -Itests/fixtures -shared -o $@ $<
# a module for another machine: a built wall with its ELF e_machine changed
$(B)/tests/fixtures/other_machine.so: $(B)/tests/fixtures/leaky_wall.so \
		tests/fixtures/other_machine.sh
	sh tests/fixtures/other_machine.sh $< $@
# the shared fixture headers, the ABI header and the frozen 1.1 header
$(FIX_SOS): $(wildcard tests/fixtures/modules/*.h) api/ns_backend.h \
	$(wildcard tests/fixtures/abi/*.h)
fixtures: $(FIX_SOS) $(B)/tests/fixtures/other_machine.so

# ---- test helper programs (escape attempts, probes) --------------------
HELP_SRC := $(sort $(wildcard tests/helpers/*.c))
HELP_BIN := $(HELP_SRC:tests/helpers/%.c=$(B)/tests/helpers/%)
$(B)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(EXE_CFLAGS) $(EXE_LDFLAGS) $(LDFLAGS) -o $@ $<
# drives a wall module's ops with a hand-built policy (the ABI header)
$(B)/tests/helpers/ns_walldrive: ALLCFLAGS += -Iapi
$(B)/tests/helpers/ns_walldrive: api/ns_backend.h
# drives a proxy module's serve() with hand-made listeners (t_netproxy.sh)
$(B)/tests/helpers/ns_proxydrive: ALLCFLAGS += -Iapi
$(B)/tests/helpers/ns_proxydrive: api/ns_backend.h
# the machine probes (tests/machine/machine.h): ns_machine for the scripts
$(B)/tests/helpers/ns_machine: tests/machine/ns_machine.c tests/machine/machine.c \
		tests/machine/machine.h
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(EXE_CFLAGS) $(EXE_LDFLAGS) $(LDFLAGS) -o $@ \
		tests/machine/ns_machine.c tests/machine/machine.c
HELP_BIN += $(B)/tests/helpers/ns_machine
helpers: $(HELP_BIN)

# ---- the attack suite's programs (tests/escape/, run by check-escape) ---
ESC_SRC := $(sort $(wildcard tests/escape/*.c))
ESC_BIN := $(ESC_SRC:tests/escape/%.c=$(B)/tests/escape/%)
$(B)/tests/escape/%: tests/escape/%.c
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(EXE_CFLAGS) $(EXE_LDFLAGS) $(LDFLAGS) -o $@ $<
escape: $(ESC_BIN)

# ---- unit suites: tests/unit/test_<x>.c, each its own CUnit main --------
# The host's suites that need Linux (/proc, Landlock, memfd, prctl,
# setresuid, the ELF fixtures, GNU ld's --wrap) are not built on Darwin;
# the others and every module's suites are (docs/MACOS.md).
UNIT_LINUX_ONLY := test_caps test_egress test_loader test_machine test_oom test_os \
	test_ownfiles test_policy test_run test_ttys test_worktree
UNIT_SRC := $(filter-out $(if $(filter Darwin,$(UNAME_S)),\
	$(UNIT_LINUX_ONLY:%=tests/unit/%.c)),$(sort $(wildcard tests/unit/test_*.c)))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/unit/%)
UNIT_COMMON := $(sort $(wildcard tests/unit/common/*.c))
# CUnit: Debian's libcunit1-dev; macOS Homebrew's cunit, by its prefix
CUNIT_PREFIX ?= $(if $(filter Darwin,$(UNAME_S)),$(shell brew --prefix \
	cunit 2>/dev/null))
CUNIT_CFLAGS ?= $(if $(CUNIT_PREFIX),-I$(CUNIT_PREFIX)/include)
CUNIT_LIBS   ?= $(if $(CUNIT_PREFIX),-L$(CUNIT_PREFIX)/lib) -lcunit
# a suite's own link flags: UNIT_LDFLAGS_<suite> (--wrap is GNU ld's)
UNIT_LDFLAGS_test_oom := $(if $(filter Darwin,$(UNAME_S)),,$(foreach f,malloc \
	calloc realloc strdup strndup realpath vasprintf asprintf,-Wl,--wrap=$(f)))
$(B)/tests/unit/%: tests/unit/%.c $(UNIT_COMMON) $(HOST_LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(EXE_CFLAGS) $(HOST_DEFS) $(HOST_INC) $(CUNIT_CFLAGS) \
		$(EXE_LDFLAGS) $(LDFLAGS) $(UNIT_LDFLAGS_$*) -o $@ $< $(UNIT_COMMON) $(HOST_LIB_OBJ) $(HOST_LIBS) $(CUNIT_LIBS)

# the machine probes' suite: the probe logic, not the host's
$(B)/tests/unit/test_machine: tests/unit/test_machine.c tests/machine/machine.c \
		tests/machine/machine.h $(UNIT_COMMON)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(EXE_CFLAGS) -Itests/machine -Itests/unit $(CUNIT_CFLAGS) \
		$(EXE_LDFLAGS) $(LDFLAGS) -o $@ $< tests/machine/machine.c $(UNIT_COMMON) $(CUNIT_LIBS)

# a module's own suites: modules/<m>/tests/test_*.c, linked with that
# module's objects only (each module is self-contained)
define module_test_rules
ifneq ($$($(1)_HERE)$$($(1)_TEST_SO)$$($(1)_PORTABLE_SRC),)
$(1)_TEST_SRC := $$(sort $$(wildcard modules/$(1)/tests/test_*.c))
$(1)_TEST_BIN := $$($(1)_TEST_SRC:modules/$(1)/tests/%.c=$(B)/tests/modules/$(1)/%)
$(B)/tests/modules/$(1)/%: modules/$(1)/tests/%.c $(UNIT_COMMON) $$($(1)_SUITE_OBJ)
	@mkdir -p $$(@D)
	$$(CC) $$(ALLCFLAGS) $$($(1)_TEST_DEFS) -Iapi -Iinfra -Imodules -Imodules/$(1) -Itests/unit \
		$$(CUNIT_CFLAGS) $(LDFLAGS) -o $$@ $$< \
		$(UNIT_COMMON) $$($(1)_SUITE_OBJ) $$($(1)_LIBS) $$(CUNIT_LIBS)
UNIT_BIN += $$($(1)_TEST_BIN)
endif
endef
$(foreach m,$(MODULES),$(eval $(call module_test_rules,$(m))))

# the module kit's own suites (modules/common/tests/), with the kit's
# portable files
NK_TEST_SRC := $(sort $(wildcard modules/common/tests/test_*.c))
NK_TEST_BIN := $(NK_TEST_SRC:modules/common/tests/%.c=$(B)/tests/modules/common/%)
NK_TEST_OBJ := $(B)/obj/modules/common/nk_run.pic.o
.SECONDARY: $(NK_TEST_OBJ)
$(B)/tests/modules/common/%: modules/common/tests/%.c $(UNIT_COMMON) $(NK_TEST_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) -Iapi -Iinfra -Imodules -Itests/unit $(CUNIT_CFLAGS) \
		$(LDFLAGS) -o $@ $< $(UNIT_COMMON) $(NK_TEST_OBJ) $(CUNIT_LIBS)
UNIT_BIN += $(NK_TEST_BIN)

check-unit: all $(UNIT_BIN)
	@tests/run-unit.sh $(B) $(UNIT_BIN)

check-integration: all pgmodel
	@tests/integration/run.sh $(B)

# the darwin process model (PROCMODEL=pgroup) built and run on Linux, in
# $(B)/tests/pgmodel (install-shaped: its modules beside it), for
# tests/integration/t_pgmodel.sh
pgmodel:
	@$(MAKE) --no-print-directory B=$(B)/tests/pgmodel PROCMODEL=pgroup \
		$(B)/tests/pgmodel/bin/nova-sandbox modules

check-escape: all
	@tests/escape/run.sh $(B)

# the denial corpus against --explain (tests/denials/): >= 95% of the
# denied paths named, no false line, every remedy fixes its case
check-denials: all
	@tests/denials/run.sh $(B)

# host/ includes only downward (docs/ARCHITECTURE.md)
check-layers:
	@infra/check-layers.sh

# every source file says its licence (LICENSE)
check-spdx:
	@infra/check-spdx.sh

# infra/deps.sh's package groups as the README says: the demo installs the
# build group only, infra/test every group (Debian: dpkg and apt know them)
check-deps:
	@infra/check-deps.sh

# the docs against the built binary: every flag a man page or the README
# names is in its help (or listed as another program's), nova-sandbox(1)'s
# SYNOPSIS has every flag of help's usage lines, every README section
# named exists
check-docs: all
	@infra/check-docs.sh $(B)

# the ABI gate: abidiff against tests/abi/baseline.xml, its own failing
# cases on scratch copies, and the layout pins on aarch64 (tests/abi/)
check-abi:
	@tests/abi/run.sh

# the darwin build proven on Linux: its sources against
# infra/darwin_poison.h, every os.h seam defined per platform
check-portable:
	@MAKE='$(MAKE)' infra/check-portable.sh '$(CC)'

# the lists check-portable reads (make HOST_OS=darwin print-darwin-src)
print-darwin-src:
	@echo $(sort $(HOST_SRC) $(foreach m,$(MODULES),$(if $(filter Darwin,$($(m)_PLATFORMS)),$($(m)_SRC))))
print-host-defs:
	@echo $(HOST_DEFS)
print-iniparser-cflags:
	@echo $(INIPARSER_CFLAGS)

# Darwin: what runs there (the integration, escape and denial suites, the
# ABI gate's abidiff and the pgmodel build are Linux's, and check-portable
# is Linux's proof of the darwin build the Mac makes for real: MACOS.md;
# check-deps asks dpkg, check-docs is run where CI builds)
CHECK_LINUX := $(if $(filter Darwin,$(UNAME_S)),,check-deps check-docs \
	check-portable check-abi check-integration check-escape check-denials)
check: check-spdx check-layers check-unit $(CHECK_LINUX)

asan:
	$(MAKE) B=build-asan OPT='-O1 -g -fno-omit-frame-pointer' \
		SAN='-fsanitize=address,undefined -fno-sanitize-recover=all' check-unit

# ---- fuzzers: tests/fuzz/fuzz_<h>.c, libFuzzer + ASan/UBSan (clang) ----
# `make fuzz` builds the host objects and every harness with clang into
# build-fuzz/ and runs each for FUZZ_SECONDS from its seed corpus
# tests/fuzz/corpus/<h>/ (FUZZ_ONLY="dns config" picks harnesses,
# FUZZ_FLAGS adds libFuzzer flags).  See tests/fuzz/README.
FUZZ_SECONDS ?= 30
FUZZ_CC      ?= clang
FUZZ_FLAGS   ?=
FUZZ_SRC   := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
FUZZ_ONLY  ?= $(FUZZ_NAMES)
FUZZ_BIN   := $(FUZZ_ONLY:%=$(B)/tests/fuzz/fuzz_%)
# a committed seed x.hex is hex text of bytes, x.argv one word a line
# (joined with NUL bytes); any other seed is the input as it is
FUZZ_SEED_SRC := $(foreach h,$(FUZZ_ONLY),$(wildcard tests/fuzz/corpus/$(h)/*))
FUZZ_SEEDS := $(patsubst tests/fuzz/corpus/%,$(B)/fuzz-seeds/%,\
	$(patsubst %.hex,%,$(patsubst %.argv,%,$(FUZZ_SEED_SRC))))
# a harness that compiles a host file in (for its static parser) links
# without that file's object
FUZZ_OWN_egress_args := $(B)/obj/host/verbs/egress.o

fuzz:
	rm -rf build-fuzz/fuzz-seeds
	$(MAKE) B=build-fuzz CC=$(FUZZ_CC) OPT='-O1 -g -fno-omit-frame-pointer' \
		SAN='-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all' \
		fuzz-run

fuzz-run: $(FUZZ_BIN) $(FUZZ_SEEDS)
	@tests/fuzz/run.sh $(B) $(FUZZ_SECONDS) '$(FUZZ_FLAGS)' $(FUZZ_ONLY)

$(B)/tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(HOST_LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(HOST_DEFS) $(HOST_INC) \
		-fsanitize=fuzzer -o $@ $< \
		$(filter-out $(FUZZ_OWN_$*),$(HOST_LIB_OBJ)) $(HOST_LIBS)

$(B)/fuzz-seeds/%: tests/fuzz/corpus/%.hex
	@mkdir -p $(@D)
	@sed 's/#.*//' $< | tr -cd '0-9a-fA-F' | fold -w2 | while read -r x; do \
		[ $${#x} = 2 ] || { echo "$<: odd number of hex digits" >&2; exit 1; }; \
		printf "\\$$(printf %o 0x$$x)"; done > $@.tmp && mv $@.tmp $@

$(B)/fuzz-seeds/%: tests/fuzz/corpus/%.argv
	@mkdir -p $(@D)
	@tr '\n' '\0' < $< > $@

$(B)/fuzz-seeds/%: tests/fuzz/corpus/%
	@mkdir -p $(@D)
	@cp $< $@

$(B)/tests/bench/%: tests/bench/%.c
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) -o $@ $<

# the egress bench renders its big plan with the host's own renderer
$(B)/tests/bench/egress_plan: tests/bench/egress_plan.c $(HOST_LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(SAN) $(HOST_INC) -o $@ $< $(HOST_LIB_OBJ) $(HOST_LIBS)

# the cap tick's cost over a tree it starts (host/proc/caps.c)
$(B)/tests/bench/caps_tick: tests/bench/caps_tick.c $(HOST_LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(SAN) $(HOST_INC) -o $@ $< $(HOST_LIB_OBJ) $(HOST_LIBS)

BENCH_BIN := $(addprefix $(B)/tests/bench/,benchrun floor egress_plan caps_tick netsrv)

# QUICK=1 (or make bench-quick): few rounds, a smoke that the bench runs
bench: all $(BENCH_BIN) bench-phases
	@NOVA_BENCH_BEFORE=$(BEFORE) tests/bench/run.sh $(if $(QUICK),--quick) $(B)

bench-quick: all $(BENCH_BIN) bench-phases
	@NOVA_BENCH_BEFORE=$(BEFORE) tests/bench/run.sh --quick $(B)

# the tool again with the wrap's phase exits (host/base/bench.h), and its
# modules beside it, in $(B)/phases: where the wrap's time goes
bench-phases:
	@$(MAKE) --no-print-directory B=$(B)/phases BENCH_PHASES=1 \
		$(B)/phases/bin/nova-sandbox modules

# ---- Windows: cross-built with mingw-w64 into build-win/ ----------------
# `make windows` builds every module whose <m>_PLATFORMS names Windows as
# a DLL (with <m>_WIN_LIBS) and the Wine test programs (tests/windows/);
# `make check-windows` runs them under Wine in a throwaway prefix
# (tests/windows/run.sh).  Its own build dir: the Linux build is untouched.
WB        ?= build-win
WIN_CC    ?= x86_64-w64-mingw32-gcc
WIN_CFLAGS := -std=c11 $(WARN) -O2 -g -D_WIN32_WINNT=0x0A00 -DUNICODE \
              -D_UNICODE -D__USE_MINGW_ANSI_STDIO=1 -Ihost -Iapi -Iinfra -Imodules \
              -MMD -MP
WIN_LDFLAGS := -static-libgcc -Wl,--no-undefined -Wl,--dynamicbase \
               -Wl,--nxcompat -Wl,--high-entropy-va
WIN_MODULES := $(foreach m,$(MODULES),$(if $(filter Windows,$($(m)_PLATFORMS)),$(m)))
# the module directory beside the .exe, as the Linux build's (MODBUILD)
WIN_MODDIR := $(patsubst $(CURDIR)/%,%,$(abspath $(WB)/bin/$(MODULEDIR_REL)))
define win_module_rules
$(1)_WOBJ := $$($(1)_SRC:%.c=$(WB)/obj/%.o)
$(WIN_MODDIR)/$(1).dll: $$($(1)_WOBJ)
	@mkdir -p $$(@D)
	$(WIN_CC) -shared $(WIN_LDFLAGS) -o $$@ $$^ $$($(1)_WIN_LIBS)
WIN_DLLS += $(WIN_MODDIR)/$(1).dll
endef
$(foreach m,$(WIN_MODULES),$(eval $(call win_module_rules,$(m))))

$(WB)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_CFLAGS) -c $< -o $@

# iniparser for Windows.  Linux links Debian's libiniparser (4.1-6).
# Debian ships no mingw build of it and `apt-get source` needs the network,
# so third_party/iniparser-4.1/ keeps the upstream source at tag v4.1
# (unchanged) and Debian's one code patch (#985097); the build copies the
# source into $(WB)/iniparser/, applies the patch there and archives it:
# offline, from a clean checkout, at the version Debian ships
# (third_party/iniparser-4.1/README says how to move it).  Its one fopen()
# gets the config's name in UTF-8, which the C runtime's fopen reads in the
# ANSI code page: host/os/windows/ini_fopen.h, forced in, opens it with
# _wfopen instead (the source stays as upstream wrote it).
INI_DIR  := third_party/iniparser-4.1
INI_WDIR := $(WB)/iniparser
INI_WSRC := $(INI_WDIR)/src/dictionary.c $(INI_WDIR)/src/iniparser.c
WIN_AR   ?= x86_64-w64-mingw32-ar
$(INI_WDIR)/.patched: $(wildcard $(INI_DIR)/src/*) $(INI_DIR)/debian-985097.patch
	rm -rf $(INI_WDIR) && mkdir -p $(INI_WDIR)
	cp -R $(INI_DIR)/src $(INI_WDIR)/src
	patch -s -p1 -d $(INI_WDIR) < $(INI_DIR)/debian-985097.patch
	touch $@
$(INI_WSRC): $(INI_WDIR)/.patched
$(WB)/iniparser/%.o: $(INI_WDIR)/src/%.c $(INI_WDIR)/.patched \
		host/os/windows/ini_fopen.h
	$(WIN_CC) -std=c99 -O2 -g -Wall -include host/os/windows/ini_fopen.h \
		-c $< -o $@
$(WB)/lib/libiniparser.a: $(WB)/iniparser/dictionary.o $(WB)/iniparser/iniparser.o
	@mkdir -p $(@D)
	rm -f $@ && $(WIN_AR) rcs $@ $^

# The Windows host, nova-sandbox.exe, from the same host/ rooms with
# host/os/windows/ as the platform layer.  What cannot exist on Windows is
# left out here, room by room, and host/verbs/unbuilt.c refuses it at run
# time (no_sandbox, naming the platform): the egress room and verb
# (nftables) and probe (Landlock's walled steps).  The host's own reaper
# and cap counter (proc/reaper.c: subreaper, waitpid, SIGCHLD; proc/caps.c:
# /proc) and run's forked flow (run/keeper.c, run/supervise.c) are left
# out too: host/proc/noreaper.c stands in, the wall's wait()/terminate()
# with its own caps are the process model there (proc/reaper.h) and run
# takes the no-fork flow (run/nofork.c).  host/os/windows/compat.h is
# forced in: the POSIX types the rooms name (uid_t), types only.  -Wno-format: mingw's gcc checks a
# format(printf) attribute against Microsoft's printf (no %zu), while
# __USE_MINGW_ANSI_STDIO links the C99 one; the Linux build checks the
# same format strings.
WIN_HOST_OUT := $(filter-out host/egress/runid.c,$(wildcard host/egress/*.c)) \
	host/verbs/egress.c host/verbs/probe.c \
	host/verbs/probe_step.c host/proc/reaper.c host/proc/pgreaper.c \
	host/proc/reaptick.c host/proc/caps.c host/run/keeper.c \
	host/run/supervise.c host/net/netproc.c host/wall/egressmod.c
WIN_HOST_SRC := $(filter-out $(WIN_HOST_OUT),\
	$(sort $(wildcard host/*.c $(HOST_ROOMS:%=host/%/*.c) \
	host/os/windows/*.c)))
WIN_HOST_OBJ := $(WIN_HOST_SRC:%.c=$(WB)/obj/host-exe/%.o)
WIN_HOST_CFLAGS := $(WIN_CFLAGS) -Wno-format -include host/os/windows/compat.h \
	-I$(INI_WDIR)/src $(HOST_DEFS)
$(WB)/obj/host-exe/%.o: %.c $(WB)/lib/libiniparser.a
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_HOST_CFLAGS) -c $< -o $@
$(WB)/bin/nova-sandbox.exe: $(WIN_HOST_OBJ) $(WB)/lib/libiniparser.a
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_LDFLAGS) -o $@ $(WIN_HOST_OBJ) \
		$(WB)/lib/libiniparser.a -ladvapi32 -lws2_32 \
		-Wl,-Bstatic -lwinpthread -Wl,-Bdynamic

# The host's Windows layer (host/os/windows/, with base/util.c it uses),
# also tested on its own (tests/windows/ostest.c).
WIN_HOST_OS_OBJ := $(patsubst %.c,$(WB)/obj/%.o,\
	$(sort $(wildcard host/os/windows/*.c)) host/base/util.c)
$(WB)/tests/windows/ostest.exe: $(WIN_HOST_OS_OBJ)
$(WB)/tests/windows/ostest.exe: WIN_TEST_OBJS = $(WIN_HOST_OS_OBJ)
# the tool runner (os/tool.h, host/os/windows/tool.c) on its own, with
# tests/windows/fake_tool.c as the program it runs
$(WB)/tests/windows/tooltest.exe: $(WIN_HOST_OS_OBJ)
$(WB)/tests/windows/tooltest.exe: WIN_TEST_OBJS = $(WIN_HOST_OS_OBJ)

WIN_TEST_SRC := $(sort $(wildcard tests/windows/*.c))
WIN_TEST_EXE := $(WIN_TEST_SRC:tests/windows/%.c=$(WB)/tests/windows/%.exe)
$(WB)/tests/windows/%.exe: tests/windows/%.c $(wildcard tests/windows/*.h) \
		api/ns_backend.h $(WB)/lib/libiniparser.a
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_CFLAGS) -I$(INI_WDIR)/src -municode $(WIN_LDFLAGS) \
		-o $@ $< $(WIN_TEST_OBJS) $(WB)/lib/libiniparser.a -ladvapi32 -lws2_32

windows: $(WIN_DLLS) $(WB)/lib/libiniparser.a $(WIN_TEST_EXE) \
	$(WB)/bin/nova-sandbox.exe

check-windows: windows
	@tests/windows/run.sh $(WB)

# ---- install ------------------------------------------------------------
$(B)/nova-sandbox.pc: infra/pkgconfig/nova-sandbox.pc.in FORCE
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	    -e 's|@MODULEDIR@|$(MODULEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e "s|@ABI_MAJOR@|$$(sed -n 's/^#define NS_BACKEND_ABI_MAJOR //p' api/ns_backend.h)|g" \
	    -e "s|@ABI_MINOR@|$$(sed -n 's/^#define NS_BACKEND_ABI_MINOR //p' api/ns_backend.h)|g" \
	    $< > $@

# Installed as they are: man pages, completion, docs.
MANPAGES := docs/man/nova-sandbox.1 docs/man/nova-sandbox.conf.5 \
            docs/man/ns_backend.3
CONFFILE := $(DESTDIR)$(SYSCONFDIR)/nova-sandbox/nova-sandbox.conf
DROPDIR  := $(DESTDIR)$(SYSCONFDIR)/nova-sandbox/conf.d
EXAMPLES := $(wildcard examples/bwrap/*)
INSTALL_PROGRAM ?= $(INSTALL) -m 0755

# a config file is installed only where there is none: an admin's edits stay
install_conf = if [ -e $(2) ]; then echo "install: keeping the existing $(2)"; \
	else $(INSTALL) -m 0644 $(1) $(2); fi

install: $(B)/bin/nova-sandbox modules $(B)/nova-sandbox.pc
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MODULEDIR) $(DROPDIR) \
		$(DESTDIR)$(INCLUDEDIR)/nova-sandbox $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(DOCDIR)/examples/bwrap
	$(INSTALL_PROGRAM) $(B)/bin/nova-sandbox $(DESTDIR)$(BINDIR)/
	$(foreach so,$(MODULE_SOS),$(INSTALL_PROGRAM) $(so) $(DESTDIR)$(MODULEDIR)/;)
	@$(call install_conf,conf/nova-sandbox.conf,$(CONFFILE))
	@$(foreach d,$(MODULE_DROPINS),$(call install_conf,$(d),$(DROPDIR)/$(word 2,$(subst /, ,$(d))).conf);)
	$(INSTALL) -m 0644 $(wildcard api/*.h) $(DESTDIR)$(INCLUDEDIR)/nova-sandbox/
	$(INSTALL) -m 0644 $(B)/nova-sandbox.pc $(DESTDIR)$(PKGCONFIGDIR)/
	$(INSTALL) -m 0644 docs/man/nova-sandbox.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 0644 docs/man/ns_backend.3 $(DESTDIR)$(MANDIR)/man3/
	$(INSTALL) -m 0644 docs/man/nova-sandbox.conf.5 $(DESTDIR)$(MANDIR)/man5/
	$(INSTALL) -m 0644 infra/completion/nova-sandbox.bash \
		$(DESTDIR)$(BASHCOMPDIR)/nova-sandbox
	$(INSTALL) -m 0644 infra/completion/_nova-sandbox $(DESTDIR)$(ZSHCOMPDIR)/
	$(INSTALL) -m 0644 docs/ABI.md $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 0644 $(EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/bwrap/

install-strip:
	$(MAKE) INSTALL_PROGRAM='$(INSTALL) -m 0755 -s --strip-program=$(STRIP)' install

# a config file goes only when it is the one install put there
uninstall_conf = if cmp -s $(1) $(2); then rm -f $(2); \
	elif [ -e $(2) ]; then echo "uninstall: keeping the changed $(2)"; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/nova-sandbox
	rm -f $(addprefix $(DESTDIR)$(MODULEDIR)/,$(notdir $(MODULE_SOS)))
	@$(call uninstall_conf,conf/nova-sandbox.conf,$(CONFFILE))
	@$(foreach d,$(MODULE_DROPINS),$(call uninstall_conf,$(d),$(DROPDIR)/$(word 2,$(subst /, ,$(d))).conf);)
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/nova-sandbox/,$(notdir $(wildcard api/*.h)))
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/nova-sandbox.pc
	rm -f $(DESTDIR)$(MANDIR)/man1/nova-sandbox.1 \
		$(DESTDIR)$(MANDIR)/man3/ns_backend.3 \
		$(DESTDIR)$(MANDIR)/man5/nova-sandbox.conf.5
	rm -f $(DESTDIR)$(BASHCOMPDIR)/nova-sandbox $(DESTDIR)$(ZSHCOMPDIR)/_nova-sandbox
	rm -f $(DESTDIR)$(DOCDIR)/ABI.md \
		$(addprefix $(DESTDIR)$(DOCDIR)/examples/bwrap/,$(notdir $(EXAMPLES)))
	-rmdir $(DESTDIR)$(MODULEDIR) $(DESTDIR)$(MODULEDIR)/.. $(DROPDIR) \
		$(DESTDIR)$(SYSCONFDIR)/nova-sandbox \
		$(DESTDIR)$(INCLUDEDIR)/nova-sandbox \
		$(DESTDIR)$(DOCDIR)/examples/bwrap $(DESTDIR)$(DOCDIR)/examples \
		$(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	rm -rf build build-asan build-fuzz build-clang build-win

FORCE:
.PHONY: all modules test-modules fixtures helpers escape check check-unit check-integration \
	pgmodel \
	bench-phases \
	check-escape check-denials check-layers check-portable \
	print-darwin-src print-host-defs print-iniparser-cflags \
	asan fuzz fuzz-run bench bench-quick install install-strip uninstall \
	check-spdx check-deps check-docs check-abi clean windows check-windows FORCE

-include $(shell find $(B)/obj $(B)/obj-test $(B)/tests -type f -name '*.d' 2>/dev/null)
-include $(shell find $(WB)/obj $(WB)/tests -type f -name '*.d' 2>/dev/null)
