# SPDX-License-Identifier: GPL-2.0
# tests/: every tests/test_*.c is one TAP program, linked against all of
# nsbench's libraries; every executable tests/t*.sh is a TAP script of the
# quick tier; tests/slow/*.sh is the slow tier (`make check-slow`).

TEST_SRCS := $(wildcard tests/test_*.c)
TEST_PROGS += $(TEST_SRCS:%.c=$(O)/%)
TEST_SCRIPTS += $(sort $(wildcard tests/t*.sh))
SLOW_TESTS += $(sort $(wildcard tests/slow/*.sh))

$(O)/tests/%: $(O)/tests/%.o $(LIBNSBBENCH) $(LIBNSBWL) $(LIBNSBCMD) $(LIBNSB)
	$(call link_cxx,$(BENCH_LIBS) $(NSB_LIBS))
