// SPDX-License-Identifier: GPL-2.0
/*
 * nsb-true — the exec target of the workloads: a static, libc-free program
 * whose whole life is three system calls, so an exec benchmark measures
 * the kernel's exec path (where mnt_may_suid and get_file_caps run), not a
 * dynamic loader.
 *
 * Its exit status reports what the exec granted, which is how a fixture
 * proves that a setuid or file-caps copy did or did not elevate:
 *	bit 0 (1)	effective uid is 0
 *	bit 1 (2)	CAP_NET_RAW is in the effective set
 * A plain run by root therefore exits 1 (hyperfine: use -i).
 */
#include <linux/capability.h>
#include <asm/unistd.h>

static long sys1(long nr, long a)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a)
			 : "rcx", "r11", "memory");
	return ret;
}

static long sys2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b)
			 : "rcx", "r11", "memory");
	return ret;
}

/* The kernel enters _start with a 16-byte aligned stack, not call-aligned. */
__attribute__((force_align_arg_pointer, noreturn, used))
void _start(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };
	long code = 0;

	if (sys1(__NR_geteuid, 0) == 0)
		code |= 1;
	if (sys2(__NR_capget, (long)&hdr, (long)data) == 0 &&
	    (data[0].effective & (1u << CAP_NET_RAW)))
		code |= 2;
	for (;;)
		sys1(__NR_exit_group, code);
}
