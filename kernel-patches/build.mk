# SPDX-License-Identifier: GPL-2.0
# kernel-patches/: guest kernels, initramfs and the kernel A/B
# (scripts/kernel, scripts/guest, scripts/ab.sh).  Kernels are cached in
# $(NSB_CACHE) (default /var/cache/nsbench) by hash of source, series and
# config, so `make kernels` twice builds nothing the second time.
#
#   make kernels  [SERIES=...]           stock + SERIES (default toggles)
#   make initramfs [PLAN=...]            build/guest/initramfs.cpio
#   make ab [BASE=none] [SERIES=...] [MODE=auto] [ROUNDS=3]
#           [PLAN=file | WORKLOADS="filter..."] [AB_ARGS=...]

NSB_CACHE ?= /var/cache/nsbench
BASE ?= none
SERIES ?= userns-checks-toggles
MODE ?= auto
ROUNDS ?= 3
PLAN ?= scripts/guest/plans/ab.plan
WORKLOADS ?=
AB_ARGS ?=
export NSB_CACHE

HELP_kernels := make kernels    build/cached guest kernels: BASE=$(BASE), SERIES=$(SERIES)
HELP_initramfs := make initramfs  guest image $(O)/guest/initramfs.cpio (PLAN=...)
HELP_ab := make ab         kernel A/B in QEMU: MODE=auto|icount|tcg|kvm ROUNDS=N WORKLOADS=...
HELP_VARS += HELP_kernels HELP_initramfs HELP_ab

.PHONY: kernels initramfs ab
kernels:
	$(Q)scripts/kernel/build.sh --series $(BASE) >/dev/null
	$(Q)scripts/kernel/build.sh --series $(SERIES) >/dev/null

initramfs: $(O)/bench/nsbench-bench $(O)/guest/nsb-guest $(O)/guest/nsb-lsm
	$(call msg,CPIO,$(O)/guest/initramfs.cpio)scripts/guest/mkinitramfs.sh \
		--plan $(PLAN) --out $(O)/guest/initramfs.cpio \
		--guest $(O)/guest/nsb-guest --bench $(O)/bench/nsbench-bench

ab: deps build-all
	$(Q)scripts/ab.sh --base $(BASE) --series $(SERIES) --mode $(MODE) \
		--rounds $(ROUNDS) --bench $(O)/bench/nsbench-bench \
		$(if $(WORKLOADS),--workloads "$(WORKLOADS)",--plan $(PLAN)) \
		$(AB_ARGS)
