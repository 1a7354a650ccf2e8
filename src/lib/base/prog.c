// SPDX-License-Identifier: GPL-2.0
/*
 * prog.c — the prefix of the library's messages (prog.h).  One prefix a
 * process: nsbench runs one command, and the tests that call an engine
 * directly get the plain program name.
 */
#include <stdarg.h>
#include <stdio.h>

#include "src/lib/base/prog.h"

static const char *prog = "nsbench";

void nsb_set_prog(const char *p)
{
	prog = p;
}

const char *nsb_prog(void)
{
	return prog;
}

void nsb_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
