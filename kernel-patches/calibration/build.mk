# SPDX-License-Identifier: GPL-2.0
# kernel-patches/calibration: nsbench's self-validation (scripts/validate.sh).
# Builds stock, a separate stock build (A/A) and the calibration kernel,
# proves the series' instruction counts from the two vmlinux files
# (scripts/kernel/objdiff.sh), runs the A/B and the A/A in icount mode and
# checks the measured shifts against kernel-patches/calibration/predictions.
#
#   make validate        [VALIDATE_MODE=icount|tcg|kvm] [VALIDATE_ROUNDS=6]
#   make validate-quick  one workload (path lookup), 2 rounds
#   make objdiff         only the objdump proof (kernels must be built)

VALIDATE_MODE ?= icount
VALIDATE_ROUNDS ?=
VALIDATE_ARGS ?=

HELP_validate := make validate       self-validation: calibrated kernels recovered within 5 % (~11 min warm; cold: +3 kernel builds)
HELP_validate_quick := make validate-quick one calibrated workload, 2 rounds (~5-7 min warm)
HELP_objdiff := make objdiff        objdump proof: the calibration series adds only its blocks
HELP_VARS += HELP_validate HELP_validate_quick HELP_objdiff

.PHONY: validate validate-quick objdiff
validate: deps build-all
	$(Q)scripts/validate.sh --mode $(VALIDATE_MODE) \
		$(if $(VALIDATE_ROUNDS),--rounds $(VALIDATE_ROUNDS)) \
		--bench $(O)/bench/nsbench-bench $(VALIDATE_ARGS)

validate-quick: deps build-all
	$(Q)scripts/validate.sh --quick --mode $(VALIDATE_MODE) \
		$(if $(VALIDATE_ROUNDS),--rounds $(VALIDATE_ROUNDS)) \
		--bench $(O)/bench/nsbench-bench $(VALIDATE_ARGS)

objdiff:
	$(Q)scripts/kernel/objdiff.sh --expect "$$(sed -n \
		's/.*calibration_spin(\([0-9]*\)).*/\1/p' \
		kernel-patches/calibration/0*.patch | sort -u | tr '\n' ' ')" \
		"$$(scripts/kernel/build.sh --quiet --series none)" \
		"$$(scripts/kernel/build.sh --quiet --series calibration)"
