# SPDX-License-Identifier: GPL-2.0
# guest/: the guest's own programs, put into the initramfs by
# mkinitramfs.sh: nsb-guest (the pipeline's fork+exec timing, the sampling
# probe) and nsb-lsm (the LSM scenarios' label tool).  Static, for a
# busybox guest without a libc; never sanitized (ASan does not link
# statically), so make check builds them as make does.

GUEST_CFLAGS := -std=gnu11 $(WARN) -D_GNU_SOURCE -I. -MMD -MP -O2 $(REPRO)

$(O)/guest/%.o: guest/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(GUEST_CFLAGS) -c -o $@ $<

# what they share with workloads/ (exec.c, lsmfuse.c), built static here
$(O)/guest/%.o: workloads/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(GUEST_CFLAGS) -c -o $@ $<

$(O)/guest/nsb-guest: $(O)/guest/nsb-guest.o $(O)/guest/exec.o
	$(call msg,LD,$@)$(CC) -static -o $@ $^

$(O)/guest/nsb-lsm: $(O)/guest/lsm/nsb-lsm.o $(O)/guest/lsmfuse.o
	$(call msg,LD,$@)$(CC) -static -o $@ $^

PROGS += $(O)/guest/nsb-guest $(O)/guest/nsb-lsm
