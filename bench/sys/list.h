/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall benchmarks on the running kernel: one line per family,
 * NSB_BENCH(name, summary); the family is bench/sys/<name>.c.
 */
NSB_BENCH(open, "open+close of a file / device node per owner, nodev, depth")
NSB_BENCH(stat, "fstatat of 1..64-deep paths per mount owner and userns depth")
NSB_BENCH(exec, "fork/vfork/spawn+exec of plain/setuid/file-caps binaries")
NSB_BENCH(mount, "mount+umount, fsopen+create of tmpfs/proc/mqueue, N IPC ns")
NSB_BENCH(xattr, "set/getxattr of user.* and security.* per owner and depth")
NSB_BENCH(lsm, "label get/set, create, stat, open, exec, mount per LSM, owner, depth")
