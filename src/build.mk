# SPDX-License-Identifier: GPL-2.0
# src/: libnsb (results I/O, statistics, reports) and the `nsbench` CLI.
# Every src/*.c but main.c goes into libnsb.a: add a file, it is built.

JANSSON_LIBS := $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)
GSL_LIBS := $(shell $(PKG_CONFIG) --libs gsl 2>/dev/null || echo -lgsl -lgslcblas -lm)
NSB_LIBS := $(JANSSON_LIBS) $(GSL_LIBS) -lm

LIBNSB_SRCS := $(filter-out src/main.c,$(wildcard src/*.c))

$(LIBNSB): $(LIBNSB_SRCS:%.c=$(O)/%.o)
	$(call msg,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(O)/nsbench: $(O)/src/main.o $(LIBNSB)
	$(call link_c,$(NSB_LIBS))

# The version the tools stamp into results.
$(O)/src/version.o: ALL_CFLAGS += -DNSBENCH_VERSION='"$(NSBENCH_VERSION)"'

PROGS += $(O)/nsbench
