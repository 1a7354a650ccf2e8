# SPDX-License-Identifier: GPL-2.0
#
# install.mk — `make install` and the man pages (included by Makefile).
#
#   make install [PREFIX=/usr/local] [DESTDIR=]   programs, plot templates,
#                                                 man pages
#   make uninstall [PREFIX=...] [DESTDIR=]        what install put there
#   make man                                      the man pages, in $(O)/man
#
# Layout under $(DESTDIR)$(PREFIX):
#   bin/nsbench, bin/nsbench-bench        the CLI and the benchmarks (the
#                                         one program a guest or a LAVA
#                                         device runs)
#   libexec/nsbench/nsb-wl                whole-process workloads (hyperfine)
#   share/nsbench/plots/*.gp              gnuplot templates: `nsbench plot`
#                                         finds them as ../share/nsbench/plots
#                                         from its own binary
#   share/man/man1/nsbench*.1             help2man pages of every --help:
#                                         nsbench(1), nsbench-CMD(1) per
#                                         command, nsbench-bench(1)
# and, under $(DESTDIR) alone, $(BASHCOMPDIR)/nsbench and nsbench-bench:
# the bash completion (contrib/completion/nsbench.bash), where
# bash-completion loads a command's completion from when first typed.
# DESTDIR is the staging root of a package or an image (a LAVA rootfs);
# PREFIX is where the files will be at run time.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/nsbench
DATADIR ?= $(PREFIX)/share/nsbench
MAN1DIR ?= $(PREFIX)/share/man/man1
# bash-completion's own directory (it is no PREFIX's: bash-completion
# looks there); its usual place where the package is not installed
BASHCOMPDIR ?= $(shell $(PKG_CONFIG) --variable=completionsdir \
		 bash-completion 2>/dev/null || \
		 echo /usr/share/bash-completion/completions)
INSTALL ?= install
HELP2MAN ?= help2man

# `git describe` changes with every commit and tag, version.c does not:
# the stamp is rewritten only when the string changes, and version.o
# (src/build.mk passes it as -DNSBENCH_VERSION) is rebuilt when it does.
NSB_VERSION_STAMP := $(O)/version.txt

$(NSB_VERSION_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(NSBENCH_VERSION)' | cmp -s - $@ || \
		echo '$(NSBENCH_VERSION)' >$@

$(O)/src/lib/base/version.o: $(NSB_VERSION_STAMP)

.PHONY: FORCE

# --- man pages ------------------------------------------------------------
# Rendered from the programs' own --help, so they never disagree with it.
# Subcommands are the rows of src/cmd/commands.h (underscores typed as '-').
NSB_COMMANDS := $(shell sed -n 's/^NSB_CMD.\([a-z_]*\),.*/\1/p' \
		  src/cmd/commands.h | tr _ -)
MAN_PAGES := $(O)/man/nsbench.1 $(O)/man/nsbench-bench.1 \
	     $(NSB_COMMANDS:%=$(O)/man/nsbench-%.1)

# help2man's NAME line: a command's summary from src/cmd/commands.h, quoted
# for the shell's single quotes.
sq = $(subst ','\'',$(1))
cmd_summary = $(shell sed -n 's/^NSB_CMD.$(subst -,_,$(1)), "\(.*\)".$$/\1/p' \
		src/cmd/commands.h)
H2M = $(HELP2MAN) --no-info --no-discard-stderr --section=1 \
      --source='nsbench $(NSBENCH_VERSION)' --manual='nsbench'

# nsbench(1) names the command pages under SEE ALSO.
$(O)/man/nsbench.h2m: src/cmd/commands.h
	@mkdir -p $(@D)
	$(Q){ echo '[SEE ALSO]'; \
	  for c in $(NSB_COMMANDS) bench; do echo ".BR nsbench-$$c (1),"; \
	  done | sed '$$ s/,$$//'; } >$@

$(O)/man/nsbench.1: $(O)/nsbench $(O)/man/nsbench.h2m $(NSB_VERSION_STAMP)
	@mkdir -p $(@D)
	$(call msg,MAN,$@)$(H2M) \
		--name='benchmarks of the user-namespace mount checks' \
		--include=$(O)/man/nsbench.h2m --output=$@ $<

$(O)/man/nsbench-bench.1: $(O)/bench/nsbench-bench $(NSB_VERSION_STAMP)
	@mkdir -p $(@D)
	$(call msg,MAN,$@)$(H2M) \
		--name='microbenchmarks of the userns mount checks' \
		--version-string='nsbench-bench $(NSBENCH_VERSION)' \
		--output=$@ $<

$(O)/man/nsbench-%.1: $(O)/nsbench src/cmd/commands.h $(NSB_VERSION_STAMP)
	@mkdir -p $(@D)
	$(call msg,MAN,$@)$(H2M) --name='$(call sq,$(call cmd_summary,$*))' \
		--help-option='$* --help' \
		--version-string='nsbench-$* $(NSBENCH_VERSION)' \
		--output=$@ $<

# make install and make man install what they need first (deps.sh's
# install group: help2man beside what make run installs), then build in
# a make that reads the build files anew, as make run and make check do:
# a machine set up by make run has no help2man.
.PHONY: man man-pages install install-files uninstall
man: deps-install
	$(Q)$(MAKE) --no-print-directory man-pages
man-pages: $(MAN_PAGES)

# --- install --------------------------------------------------------------
install: deps-install
	$(Q)$(MAKE) --no-print-directory install-files

install-files: build-all man-pages
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))$(INSTALL) -d \
		'$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(LIBEXECDIR)' \
		'$(DESTDIR)$(DATADIR)/plots' '$(DESTDIR)$(MAN1DIR)'
	$(Q)$(INSTALL) -m 755 $(O)/nsbench $(O)/bench/nsbench-bench \
		'$(DESTDIR)$(BINDIR)'
	$(Q)$(INSTALL) -m 755 $(O)/workloads/nsb-wl '$(DESTDIR)$(LIBEXECDIR)'
	$(Q)$(INSTALL) -m 644 plots/*.gp '$(DESTDIR)$(DATADIR)/plots'
	$(Q)$(INSTALL) -m 644 $(MAN_PAGES) '$(DESTDIR)$(MAN1DIR)'
	$(Q)$(INSTALL) -d '$(DESTDIR)$(BASHCOMPDIR)'
	$(Q)$(INSTALL) -m 644 contrib/completion/nsbench.bash \
		'$(DESTDIR)$(BASHCOMPDIR)/nsbench'
	$(Q)ln -sf nsbench '$(DESTDIR)$(BASHCOMPDIR)/nsbench-bench'

uninstall:
	$(call msg,RM,$(DESTDIR)$(PREFIX))rm -f \
		'$(DESTDIR)$(BINDIR)/nsbench' \
		'$(DESTDIR)$(BINDIR)/nsbench-bench' \
		'$(DESTDIR)$(LIBEXECDIR)/nsb-wl' \
		'$(DESTDIR)$(BASHCOMPDIR)/nsbench' \
		'$(DESTDIR)$(BASHCOMPDIR)/nsbench-bench' \
		$(foreach p,$(notdir $(MAN_PAGES)), \
			'$(DESTDIR)$(MAN1DIR)/$(p)') \
		$(foreach g,$(notdir $(wildcard plots/*.gp)), \
			'$(DESTDIR)$(DATADIR)/plots/$(g)')
	$(Q)rmdir '$(DESTDIR)$(LIBEXECDIR)' '$(DESTDIR)$(DATADIR)/plots' \
		'$(DESTDIR)$(DATADIR)' 2>/dev/null || true

HELP_install := make install    PREFIX=/usr/local DESTDIR=: programs, plots, man pages, bash completion
HELP_man := make man        man pages from --help (help2man) into $(O)/man
HELP_VARS += HELP_install HELP_man
