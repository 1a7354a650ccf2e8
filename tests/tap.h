/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h — minimal TAP producer for nsbench's C tests (read by prove).
 *
 *	plan_no_plan();
 *	ok(x == 1, "x is one");
 *	is_int(got, want, "depth");
 *	skip(1, "no user namespaces: %s", why);
 *	return done_testing();
 *
 * A test whose setup fails says so in one failed point and ends:
 *	if (!mkdtemp(dir))
 *		return cannot_start("mkdtemp");
 */
#ifndef NSB_TAP_H
#define NSB_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/lib/base/base.h"

static int tap_run, tap_failed;

static inline void plan_no_plan(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static inline int tap_vok(int pass, const char *fmt, va_list ap)
{
	tap_run++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_run);
	vprintf(fmt, ap);
	putchar('\n');
	return pass;
}

static inline int __attribute__((format(printf, 2, 3)))
ok(int pass, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_vok(pass, fmt, ap);
	va_end(ap);
	return r;
}

static inline void __attribute__((format(printf, 1, 2)))
diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#define is_int(got, want, ...) ({					\
	long long _g = (got), _w = (want);				\
	int _r = ok(_g == _w, __VA_ARGS__);				\
	if (!_r)							\
		diag("  got %lld, want %lld", _g, _w);			\
	_r; })

#define is_str(got, want, ...) ({					\
	const char *_g = (got), *_w = (want);				\
	int _r = ok(_g && _w && !strcmp(_g, _w), __VA_ARGS__);		\
	if (!_r)							\
		diag("  got '%s', want '%s'", _g ? _g : "(null)",	\
		     _w ? _w : "(null)");				\
	_r; })

/* |got - want| <= tol, for values computed by another package. */
#define is_near(got, want, tol, ...) ({					\
	double _g = (got), _w = (want);					\
	int _r = ok(fabs(_g - _w) <= (tol), __VA_ARGS__);		\
	if (!_r)							\
		diag("  got %.12g, want %.12g (tol %g)", _g, _w,	\
		     (double)(tol));					\
	_r; })

static inline void __attribute__((format(printf, 2, 3)))
skip(int n, const char *fmt, ...)
{
	va_list ap;

	while (n-- > 0) {
		printf("ok %d # SKIP ", ++tap_run);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
	}
}

static inline int done_testing(void)
{
	printf("1..%d\n", tap_run);
	return tap_failed ? 1 : 0;
}

/* The test cannot start: one failed point saying why, then the plan. */
#define cannot_start(...) (ok(0, __VA_ARGS__), done_testing())

#endif /* NSB_TAP_H */
