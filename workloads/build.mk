# SPDX-License-Identifier: GPL-2.0
# workloads/: the scenario-fixture library libnsbwl.a (every workloads/*.c).

LIBNSBWL_SRCS := $(wildcard workloads/*.c)

$(LIBNSBWL): $(LIBNSBWL_SRCS:%.c=$(O)/%.o)
	$(call msg,AR,$@)rm -f $@ && $(AR) rcs $@ $^
