# SPDX-License-Identifier: GPL-2.0
# bench/: the microbenchmark program nsbench-bench.  Every .c under
# bench/, bench/models/ and bench/sys/ is picked up; gbench.cc is the only
# C++.  Everything but main.c also goes into libnsbbench.a for the tests.

BENCH_SRCS := $(wildcard bench/*.c bench/models/*.c bench/sys/*.c)
BENCH_LIB_OBJS := $(filter-out $(O)/bench/main.o,$(BENCH_SRCS:%.c=$(O)/%.o)) \
		  $(O)/bench/gbench.o

# The fallbacks are what pkg-config answers on Debian 12, so a build
# whose packages were not there yet when make read this file links the
# same program (and makes the same guest image) as every later build.
BENCH_LIBS := $(shell $(PKG_CONFIG) --libs benchmark 2>/dev/null || echo -lbenchmark) \
	      $(shell $(PKG_CONFIG) --libs liburcu 2>/dev/null || \
		echo -lurcu-common -lurcu) \
	      -lcap -lpthread

$(LIBNSBBENCH): $(BENCH_LIB_OBJS)
	$(call msg,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(O)/bench/nsbench-bench: $(O)/bench/main.o $(O)/bench/version.o \
			  $(LIBNSBBENCH) $(LIBNSBWL) $(LIBNSB)
	$(call link_cxx,$(BENCH_LIBS) $(NSB_LIBS))

# nsbench-bench's nsb_version() (linked before libnsb.a, whose version.o
# it replaces): NSBENCH_GUEST_VERSION, the commit that last changed what
# it and the guest image are made of (Makefile), so the image and the
# boot cache's key change only with them.  The stamp is rewritten only
# when the string changes.
NSB_GUEST_VERSION_STAMP := $(O)/guest-version.txt

$(NSB_GUEST_VERSION_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(NSBENCH_GUEST_VERSION)' | cmp -s - $@ || \
		echo '$(NSBENCH_GUEST_VERSION)' >$@

$(O)/bench/version.o: src/lib/base/version.c $(NSB_GUEST_VERSION_STAMP)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) \
		-DNSBENCH_VERSION='"$(NSBENCH_GUEST_VERSION)"' -c -o $@ $<

PROGS += $(O)/bench/nsbench-bench
