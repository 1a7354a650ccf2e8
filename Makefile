# SPDX-License-Identifier: GPL-2.0
#
# nsbench — top-level Makefile.  `make help` lists the targets.
#
# Each area of the tree adds itself through a fragment, <dir>/build.mk,
# which appends to these variables:
#   PROGS         programs `make` builds (paths under $(O))
#   TEST_PROGS    C test programs `make check` builds and runs (TAP)
#   TEST_SCRIPTS  TAP scripts `make check` runs (executable, in tests/)
#   SLOW_TESTS    TAP programs/scripts of the slow tier (`make check-slow`)
# Local overrides go in config.mak (not tracked), as in git's Makefile.

-include config.mak

# Build output: release build in build/, sanitizer build in build/check/.
O ?= build
V ?= 0
SANITIZE ?= 0

# make run KERNEL=6.12: the guests' kernel version (Debian's
# linux-source-6.12, kernel-patches/6.12/); default kernel-patches/
# default-version.  The scripts read it as NSB_KERNEL.
ifdef KERNEL
export NSB_KERNEL := $(KERNEL)
endif
KERNEL_VERSION := $(or $(KERNEL),$(shell scripts/kernel/default-version.sh .))

CC ?= cc
CXX ?= c++
PKG_CONFIG ?= pkg-config

WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wno-unused-parameter
CFLAGS ?= -O2 -g
CXXFLAGS ?= -O2 -g
# No checkout path in the binaries (debug info, __FILE__): two clones of a
# commit build the same nsbench-bench, hence the same guest image, so the
# boot cache (keyed by the image's hash) serves a fresh clone too.
REPRO := -ffile-prefix-map=$(CURDIR)=.
NSB_CFLAGS := -std=gnu11 $(WARN) -D_GNU_SOURCE -I. -MMD -MP $(REPRO)
NSB_CXXFLAGS := -std=gnu++17 $(WARN) -D_GNU_SOURCE -I. -MMD -MP $(REPRO)
LDFLAGS ?=

# ccache where it is installed (deps.sh installs it): a new checkout of a
# commit compiles nothing it compiled before.  The objects are the
# compiler's own bytes (REPRO keeps the checkout's path out of them);
# base_dir and nohashdir let a checkout elsewhere hit.  CCACHE= turns it
# off.
CCACHE ?= $(shell command -v ccache 2>/dev/null)
ifneq ($(CCACHE),)
override CC := $(CCACHE) $(CC)
override CXX := $(CCACHE) $(CXX)
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
endif

ifeq ($(SANITIZE),1)
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer \
       -fno-sanitize-recover=undefined
NSB_CFLAGS += $(SAN)
NSB_CXXFLAGS += $(SAN)
LDFLAGS += $(SAN)
endif

ALL_CFLAGS = $(NSB_CFLAGS) $(CFLAGS)
ALL_CXXFLAGS = $(NSB_CXXFLAGS) $(CXXFLAGS)

# Quiet rules: "  CC      build/bench/main.o"; V=1 prints full commands.
ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif
export V

NSBENCH_VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)
# What measured: the last commit that changed what nsbench-bench and the
# guest image are built from.  nsbench-bench carries it instead of the
# checkout's version, so a commit elsewhere (docs, scripts, the report;
# the Markdown beside the code too) makes the same guest image and takes
# its boots from the cache.
GUEST_PATHS := bench workloads src guest Makefile install.mk ':(exclude)*.md'
NSBENCH_GUEST_VERSION := $(shell c=$$(git log -1 --format=%H -- \
	$(GUEST_PATHS) 2>/dev/null) && [ -n "$$c" ] && \
	v=$$(git describe --always --tags "$$c" 2>/dev/null) && \
	{ git diff --quiet HEAD -- $(GUEST_PATHS) || v=$$v-dirty; } && \
	echo "$$v" || echo unknown)

# The project's libraries, named here because fragments refer to each
# other's in prerequisites (expanded when read, whatever the include order).
LIBNSB := $(O)/libnsb.a
LIBNSBCMD := $(O)/libnsbcmd.a
LIBNSBWL := $(O)/libnsbwl.a
LIBNSBBENCH := $(O)/libnsbbench.a

PROGS :=
TEST_PROGS :=
TEST_SCRIPTS :=
SLOW_TESTS :=

# Keep objects make would treat as intermediate (test_*.o): no relinks.
.SECONDARY:

.PHONY: all
all: deps-check build-all

include $(sort $(wildcard */build.mk */*/build.mk))
include install.mk

.PHONY: build-all
build-all: $(PROGS)

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/%.o: %.cc
	@mkdir -p $(@D)
	$(call msg,CXX,$@)$(CXX) $(ALL_CXXFLAGS) -c -o $@ $<

# Link helpers for fragments: $(call link_c,LIBS) / $(call link_cxx,LIBS)
# link the prerequisites' objects and archives into $@.
link_c = $(call msg,LD,$@)$(CC) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(1)
link_cxx = $(call msg,LD,$@)$(CXX) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(1)

# --- dependencies -------------------------------------------------------
# deps installs what is missing (apt-get, needs root); deps-check only
# reports, so a plain `make` by a non-root user gets a clear message.
# deps-run is the main job's share: no test tools (chromium, node);
# deps-install is make install's: the main job's and help2man.
.PHONY: deps deps-run deps-install deps-check
deps:
	$(Q)scripts/deps.sh install
deps-run:
	$(Q)scripts/deps.sh install run
deps-install:
	$(Q)scripts/deps.sh install install
deps-check:
	$(Q)scripts/deps.sh check run

# --- tests --------------------------------------------------------------
# `make check` is the quick tier: everything is rebuilt with ASan+UBSan in
# build/check and every TAP test runs under prove.  Nothing in it depends
# on the machine's speed.
# Test scripts find the binaries under test through NSB_BUILD.
.PHONY: check check-here check-slow
# The guest tests (t85, t88) boot the unsanitized nsbench-bench that
# `make run` boots: it is built first and handed over by NSB_GUEST_BENCH.
# deps first, then a make that reads the build files anew: link flags
# come from pkg-config, which knows the packages only once they are in.
check: deps
	$(Q)$(MAKE) --no-print-directory build-all
	$(Q)NSB_GUEST_BENCH=$(abspath $(O))/bench/nsbench-bench \
		$(MAKE) --no-print-directory O=$(O)/check SANITIZE=1 check-here

check-here: build-all $(TEST_PROGS)
	$(Q)NSB_BUILD=$(O) tests/run $(TEST_PROGS) $(TEST_SCRIPTS)

check-slow: deps
	$(Q)$(MAKE) --no-print-directory build-all
	$(Q)NSB_BUILD=$(O) tests/run $(SLOW_TESTS)

# --- main jobs ----------------------------------------------------------
.PHONY: run bench bench-stages
run: deps-run
	$(Q)$(MAKE) --no-print-directory build-all
	$(Q)scripts/run-main.sh

# Where make run's time goes: every stage timed, every boot booted (no
# boot result from the cache), the per-boot wall times and the kernel's
# build time.  A benchmark of the pipeline, not a test.
bench-stages: deps-run
	$(Q)$(MAKE) --no-print-directory build-all
	$(Q)NSB_BOOT_CACHE=0 scripts/run-main.sh | \
		grep -E '^== nsbench|^   (boots|phases|plot|Markdown):'

bench: deps-run
	$(Q)$(MAKE) --no-print-directory build-all
	$(Q)$(O)/bench/nsbench-bench --tier=quick --label=models-quick \
		--benchmark_filter=^models/

.PHONY: clean distclean help
clean:
	$(call msg,CLEAN,$(O))rm -rf $(O)

distclean: clean
	$(Q)rm -f config.mak

# Fragments add lines with HELP_VARS += NAME, the line in $(NAME) (a
# variable keeps its spaces; a list of words would not).
help:
	@echo 'nsbench targets:'
	@echo '  make            build everything (build/)'
	@echo '  make run        main job: install deps, build, run the default suite'
	@echo '  make run KERNEL=6.12  the same on another kernel version (kernel-patches/6.12)'
	@echo '  make check      quick test tier (ASan+UBSan, TAP via prove)'
	@echo '  make check-slow slow test tier (kernel builds, guest boots)'
	@echo '  make bench      microbenchmarks, quick tier (<= 60 s)'
	@echo '  make bench-stages  make run with every boot booted: stage times'
	@echo '  make deps       install missing Debian packages (root)'
	@echo '  make V=1 ...    show full commands'
	@$(foreach v,$(HELP_VARS),echo '  $($(v))';)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
