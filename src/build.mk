# SPDX-License-Identifier: GPL-2.0
# src/: two rooms.  src/lib/ is libnsb, itself in rooms (base, io, stats,
# render, history; README's Layout): every src/lib/<room>/*.c goes into
# libnsb.a.  src/cmd/ is the `nsbench` CLI: one file per subcommand
# (commands.h: one row each), its options, usage and output; every
# src/cmd/*.c but main.c goes into libnsbcmd.a (the tests call cmd_*()
# directly).  Add a file, it is built.

JANSSON_LIBS := $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)
GSL_LIBS := $(shell $(PKG_CONFIG) --libs gsl 2>/dev/null || echo -lgsl -lgslcblas -lm)
NSB_LIBS := $(JANSSON_LIBS) $(GSL_LIBS) -lm

LIBNSB_SRCS := $(wildcard src/lib/*/*.c)
LIBNSBCMD_SRCS := $(filter-out src/cmd/main.c,$(wildcard src/cmd/*.c))

$(LIBNSB): $(LIBNSB_SRCS:%.c=$(O)/%.o)
	$(call msg,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(LIBNSBCMD): $(LIBNSBCMD_SRCS:%.c=$(O)/%.o)
	$(call msg,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(O)/nsbench: $(O)/src/cmd/main.o $(LIBNSBCMD) $(LIBNSB)
	$(call link_c,$(NSB_LIBS))

# The version the tools stamp into results.
$(O)/src/lib/base/version.o: \
	ALL_CFLAGS += -DNSBENCH_VERSION='"$(NSBENCH_VERSION)"'

PROGS += $(O)/nsbench
