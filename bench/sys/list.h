/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall benchmarks on the running kernel: one line per family,
 * NSB_BENCH(name, summary); the family is bench/sys/<name>.c.
 */
