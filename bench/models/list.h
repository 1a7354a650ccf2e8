/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace models of the checks: one line per family,
 * NSB_BENCH(name, summary); the family is bench/models/<name>.c.
 */
NSB_BENCH(shim, "harness overhead: an empty benchmark through the C API")
