# SPDX-License-Identifier: GPL-2.0
# scripts/: the orchestration rules beside the scripts they run: guest
# kernels (scripts/kernel), the guest image (guest), the kernel A/B
# (ab.sh) and the self-validation (validate.sh).  kernel-patches/ holds only
# their data: patches, series, configs and .boot files.  Kernels are cached in
# $(NSB_CACHE) (default /var/cache/nsbench) by hash of source, series and
# config, so `make kernels` twice builds nothing the second time.
#
#   make kernels  [SERIES=...]           stock + SERIES (default toggles)
#   make initramfs [PLAN=...]            build/guest/initramfs.cpio
#   make ab [BASE=none] [SERIES=...] [MODE=auto] [ROUNDS=3]
#           [PLAN=file | WORKLOADS="filter..."] [AB_ARGS=...]
#   make validate        [VALIDATE_MODE=icount|tcg|kvm] [VALIDATE_ROUNDS=6]
#   make validate-quick  one workload (path lookup), 2 rounds
#   make objdiff         only the objdump proof (kernels must be built)

NSB_CACHE ?= /var/cache/nsbench
BASE ?= none
SERIES ?= userns-checks-toggles
MODE ?= auto
ROUNDS ?= 3
PLAN ?= guest/plans/ab.plan
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

# The image is a file with its inputs as prerequisites; the plan's name is
# one too (a stamp rewritten only when PLAN changes), so another PLAN
# rebuilds it even when that plan file is older than the image.
INITRAMFS := $(O)/guest/initramfs.cpio
initramfs: $(INITRAMFS)

$(O)/guest/initramfs.plan: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(PLAN)' | cmp -s - $@ || printf '%s\n' '$(PLAN)' >$@

# Every plan is in the image too (for `include`).
$(INITRAMFS): $(O)/bench/nsbench-bench $(O)/guest/nsb-guest $(O)/guest/nsb-lsm \
		$(O)/workloads/progs/nsb-true \
		$(PLAN) $(wildcard guest/plans/*.plan) $(O)/guest/initramfs.plan \
		guest/mkinitramfs.sh guest/init.sh
	$(call msg,CPIO,$@)guest/mkinitramfs.sh --plan "$(PLAN)" \
		--out $@ --guest $(O)/guest/nsb-guest \
		--bench $(O)/bench/nsbench-bench

ab: deps
	$(Q)$(MAKE) --no-print-directory build-all
	$(Q)scripts/ab.sh --base $(BASE) --series $(SERIES) --mode $(MODE) \
		--rounds $(ROUNDS) --bench $(O)/bench/nsbench-bench \
		$(if $(WORKLOADS),--workloads "$(WORKLOADS)",--plan "$(PLAN)") \
		$(AB_ARGS)

# --- self-validation: kernel-patches/VERSION/calibration -----------------
# Builds stock, a separate stock build (A/A) and the calibration kernel,
# proves the series' instruction counts from the two vmlinux files
# (scripts/kernel/objdiff.sh), runs the A/B and the A/A in icount mode and
# checks the measured shifts against kernel-patches/VERSION/calibration/
# predictions (make validate KERNEL=6.12: 6.12's).
VALIDATE_MODE ?= icount
VALIDATE_ROUNDS ?=
VALIDATE_ARGS ?=

HELP_validate := make validate       self-validation: calibrated kernels recovered within 0.5 % (central means: 0.2 %; ~3.5 min warm; cold: +3 kernel builds)
HELP_validate_quick := make validate-quick one calibrated workload, 2 rounds (~40 s warm)
HELP_objdiff := make objdiff        objdump proof: the calibration series adds only its blocks
HELP_VARS += HELP_validate HELP_validate_quick HELP_objdiff

VALIDATE_CMD = scripts/validate.sh --mode $(VALIDATE_MODE) \
	$(if $(VALIDATE_ROUNDS),--rounds $(VALIDATE_ROUNDS)) \
	--bench $(O)/bench/nsbench-bench $(VALIDATE_ARGS)

.PHONY: validate validate-quick objdiff
validate: deps
	$(Q)$(MAKE) --no-print-directory build-all
	$(Q)$(VALIDATE_CMD)

validate-quick: deps
	$(Q)$(MAKE) --no-print-directory build-all
	$(Q)$(VALIDATE_CMD) --quick

objdiff:
	$(Q)scripts/kernel/objdiff.sh --expect "$$(sed -n \
		's/.*calibration_spin(\([0-9]*\)).*/\1/p' \
		kernel-patches/$(KERNEL_VERSION)/calibration/0*.patch | sort -u | tr '\n' ' ')" \
		"$$(scripts/kernel/build.sh --quiet --series none)" \
		"$$(scripts/kernel/build.sh --quiet --series calibration)"
