/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace models of the checks: one line per family,
 * NSB_BENCH(name, summary); the family is bench/models/<name>.c.
 */
NSB_BENCH(shim, "harness overhead: an empty benchmark through the C API")
NSB_BENCH(in_userns, "in_userns(): 2015 walk to NULL vs level-bounded walk")
NSB_BENCH(mnt_may_suid, "mnt_may_suid(): nosuid + check_mnt + userns walk")
NSB_BENCH(may_open_dev, "may_open_dev(): 2015 MNT_NODEV/s_user_ns vs SB_I_NODEV")
NSB_BENCH(sget, "sget() superblock list walk: spinlock vs liburcu RCU")
NSB_BENCH(secattr, "security-label policy: SELinux/Smack fetch vs skip")
