# SPDX-License-Identifier: GPL-2.0
# workloads/: the scenario-fixture library libnsbwl.a (every workloads/*.c)
# plus the exec target nsb-true, embedded into the library as a byte array
# so a fixture needs no file from the build tree (the same bench binary
# runs in a busybox guest).

LIBNSBWL_SRCS := $(wildcard workloads/*.c)

# nsb-true is static and libc-free; it never takes the sanitizer flags.
NSB_TRUE_CFLAGS := -O2 -static -nostdlib -ffreestanding -fno-stack-protector \
		   -fno-asynchronous-unwind-tables -fno-pie -no-pie -s \
		   -Wl,--build-id=none $(WARN)

$(O)/workloads/progs/nsb-true: workloads/progs/nsb-true.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(NSB_TRUE_CFLAGS) -o $@ $<

# The blob as C, written with od so no xxd is needed.
$(O)/workloads/progs/nsb_true_blob.c: $(O)/workloads/progs/nsb-true
	$(call msg,GEN,$@){ \
	  echo '/* SPDX-License-Identifier: GPL-2.0 */'; \
	  echo '/* Generated from nsb-true by workloads/build.mk. */'; \
	  echo 'const unsigned char nsb_true_elf[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '};'; \
	  echo 'const unsigned long nsb_true_elf_len = sizeof(nsb_true_elf);'; \
	} > $@.tmp && mv $@.tmp $@

$(O)/workloads/progs/nsb_true_blob.o: $(O)/workloads/progs/nsb_true_blob.c
	$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBNSBWL): $(LIBNSBWL_SRCS:%.c=$(O)/%.o) $(O)/workloads/progs/nsb_true_blob.o
	$(call msg,AR,$@)rm -f $@ && $(AR) rcs $@ $^

# nsb-wl: whole-process workloads for hyperfine (exec and mount storms).
$(O)/workloads/nsb-wl: $(O)/workloads/progs/nsb-wl.o $(LIBNSBWL) $(LIBNSB)
	$(call link_c,-lcap)

PROGS += $(O)/workloads/progs/nsb-true $(O)/workloads/nsb-wl
