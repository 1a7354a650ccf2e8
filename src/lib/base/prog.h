/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prog.h — whom the library's messages speak for (prog.c).  A command
 * names itself once, nsb_set_prog("nsbench gate"), and the library's
 * errors carry that prefix, as git's die() and error() take theirs from
 * the program: no library file spells a command's name, and one engine
 * serves two commands with each one's own prefix.
 */
#ifndef NSB_PROG_H
#define NSB_PROG_H

/* prog is kept, not copied: a string literal, as every caller has. */
void nsb_set_prog(const char *prog);
/* What nsb_set_prog set; "nsbench" until a command sets it. */
const char *nsb_prog(void);
/* "PROG: " and the message on stderr (fmt ends with its own '\n'). */
void nsb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* NSB_PROG_H */
