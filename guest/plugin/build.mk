# SPDX-License-Identifier: GPL-2.0
# guest/plugin/: the cache-model plugin nsb-cachesim.so, loaded by QEMU
# (-plugin) in the icount boots.  A shared object in QEMU's process:
# never sanitized (QEMU is not), built as make builds it in every tree.
# Its API header comes from QEMU's source package (fetch-api.sh).

PLUGIN_DIR := $(O)/guest/plugin
PLUGIN_API_H := $(PLUGIN_DIR)/api/qemu-plugin.h
PLUGIN_CFLAGS := -std=gnu11 $(WARN) -D_GNU_SOURCE -I. -I$(PLUGIN_DIR)/api \
		 -MMD -MP -O2 -fPIC $(REPRO)

$(PLUGIN_API_H): guest/plugin/fetch-api.sh
	$(call msg,FETCH,$@)guest/plugin/fetch-api.sh $@

$(PLUGIN_DIR)/%.pic.o: guest/plugin/%.c | $(PLUGIN_API_H)
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(PLUGIN_CFLAGS) -c -o $@ $<

$(PLUGIN_DIR)/nsb-cachesim.so: $(PLUGIN_DIR)/nsb-cachesim.pic.o \
			       $(PLUGIN_DIR)/cachemodel.pic.o \
			       $(PLUGIN_DIR)/funcs.pic.o
	$(call msg,LD,$@)$(CC) -shared -Wl,--build-id=none -o $@ $^

PROGS += $(PLUGIN_DIR)/nsb-cachesim.so

# The model, built as the host's code is (sanitized in make check), for
# tests/test_cachesim.c.
$(O)/guest/plugin/cachemodel.host.o: guest/plugin/cachemodel.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/tests/test_cachesim: $(O)/guest/plugin/cachemodel.host.o
