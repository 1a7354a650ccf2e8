# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC3043
#
# guest/lsm/setup.sh — sourced by the guest's /init when the image
# has /lsm (mkinitramfs.sh --lsm).  Defines:
#   lsm_setup   mount securityfs, find the active LSM (lsm= on the command
#               line), load its policy (SELinux: /lsm/selinux.policy into
#               /sys/fs/selinux/load; enforcing unless nsb.selinux=
#               permissive) or rules (Smack: /lsm/smack.rules into
#               smackfs load2), mount the ext4 image /lsm/ext4.img on
#               /lsm/ext4, label it (security.selinux / security.SMACK64),
#               unmount and mount it again so the labels come from disk.
#   lsm_check   the preconditions, one "PROBE lsm.pre.NAME VALUE ok|FAIL"
#               each and "PROBE lsm.pre result ok|FAIL" (see README.md).
# Uses msg from init.sh.

NSB_LSM=none
LSM_LABEL=
LSM_XATTR=

lsm_setup() {
	local enforce=1 arg
	mkdir -p /sys/kernel/security
	mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
	case "$(cat /sys/kernel/security/lsm 2>/dev/null)" in
	*selinux*) NSB_LSM=selinux ;;
	*smack*) NSB_LSM=smack ;;
	*) NSB_LSM=none ;;
	esac
	# shellcheck disable=SC2013 # words, not lines
	for arg in $(cat /proc/cmdline); do
		case "$arg" in
		nsb.selinux=permissive) enforce=0 ;;
		nsb.selinux=enforcing) enforce=1 ;;
		esac
	done
	case $NSB_LSM in
	selinux)
		LSM_XATTR=security.selinux
		LSM_LABEL=user_u:object_r:lab_t
		mount -t selinuxfs selinuxfs /sys/fs/selinux || return 1
		cat /lsm/selinux.policy >/sys/fs/selinux/load ||
			{ msg "PROBE lsm.policy load-failed"; return 1; }
		echo "$enforce" >/sys/fs/selinux/enforce
		msg "PROBE lsm selinux enforce=$(cat /sys/fs/selinux/enforce) policyvers=$(cat /sys/fs/selinux/policyvers) context=$(tr -d '\0' </proc/self/attr/current)"
		;;
	smack)
		LSM_XATTR=security.SMACK64
		LSM_LABEL=nsblab
		mkdir -p /sys/fs/smackfs
		mount -t smackfs smackfs /sys/fs/smackfs || return 1
		grep -v '^#' /lsm/smack.rules | while read -r s o a; do
			[ -n "$s" ] && echo "$s $o $a" >/sys/fs/smackfs/load2
		done
		msg "PROBE lsm smack rules=$(wc -l </sys/fs/smackfs/load2) label=$(tr -d '\0' </proc/self/attr/current)"
		;;
	*)
		msg "PROBE lsm none"
		;;
	esac
	mkdir -p /lsm/ext4 /lsm/m
	mount -t ext4 -o loop /lsm/ext4.img /lsm/ext4 ||
		{ msg "PROBE lsm.ext4 mount-failed"; return 1; }
	if [ "$NSB_LSM" != none ]; then
		nsb-lsm set /lsm/ext4 "$LSM_XATTR" "$LSM_LABEL" >/dev/null
		nsb-lsm set /lsm/ext4/file "$LSM_XATTR" "$LSM_LABEL" >/dev/null
	fi
	umount /lsm/ext4 && mount -t ext4 -o loop /lsm/ext4.img /lsm/ext4
	chmod 0666 /lsm/ext4/file
}

# lsm_pre NAME VALUE EXPECTED: report one precondition.
LSM_PRE_OK=ok
lsm_pre() {
	local st=ok
	[ "$2" = "$3" ] || { st=FAIL; LSM_PRE_OK=FAIL; }
	msg "PROBE lsm.pre.$1 $2 $st${4:+ $4}"
}

# lsm_sw NAME DEFAULT: a userns_checks switch (the sysctl, else DEFAULT).
lsm_sw() {
	cat "/proc/sys/kernel/userns_checks/$1" 2>/dev/null || echo "$2"
}

# "LABEL open=..." of a file on the labelling FUSE server's mount, made
# by init ($1=init) or by root of a new userns ($1=userns).
lsm_fuse() {
	local u=
	[ "$1" = userns ] && u="-U -r"
	# shellcheck disable=SC2086
	unshare $u -m nsb-lsm fuse /lsm/m "$LSM_XATTR" "$LSM_LABEL" 2>&1
}

# Label of a file on a userns-owned tmpfs after root there set ours.
lsm_tmpfs_setlabel() {
	unshare -U -r -m sh -c "mount -t tmpfs nsb /lsm/m && echo x >/lsm/m/f &&
		r=\$(nsb-lsm set /lsm/m/f $LSM_XATTR $LSM_LABEL) ;
		case \$r in ok) nsb-lsm get /lsm/m/f $LSM_XATTR ;; *) echo \$r ;; esac" 2>&1
}

lsm_check() {
	local v on
	LSM_PRE_OK=ok
	case $NSB_LSM in
	selinux)
		lsm_pre ext4.init.label "$(nsb-lsm get /lsm/ext4/file "$LSM_XATTR")" "$LSM_LABEL"
		lsm_pre fuse.init.label "$(lsm_fuse init)" "$LSM_LABEL open=ok"
		on=$(lsm_sw selinux 1)
		v=$LSM_LABEL
		[ "$on" = 1 ] && v=user_u:object_r:base_t
		lsm_pre fuse.userns.label "$(lsm_fuse userns)" "$v open=ok" "selinux=$on"
		v=$LSM_LABEL
		[ "$(lsm_sw secattr 0)" = 1 ] && v=user_u:object_r:base_t
		lsm_pre tmpfs.userns.setlabel "$(lsm_tmpfs_setlabel)" "$v" "secattr=$(lsm_sw secattr 0)"
		# The switches flipped inside this boot (toggles kernels).
		if [ -w /proc/sys/kernel/userns_checks/selinux ]; then
			echo $((1 - on)) >/proc/sys/kernel/userns_checks/selinux
			v=$LSM_LABEL
			[ "$on" = 0 ] && v=user_u:object_r:base_t
			lsm_pre fuse.userns.label.flipped "$(lsm_fuse userns)" "$v open=ok" "selinux=$((1 - on))"
			echo "$on" >/proc/sys/kernel/userns_checks/selinux
			on=$(lsm_sw secattr 0)
			echo $((1 - on)) >/proc/sys/kernel/userns_checks/secattr
			v=$LSM_LABEL
			[ "$on" = 0 ] && v=user_u:object_r:base_t
			lsm_pre tmpfs.userns.setlabel.flipped "$(lsm_tmpfs_setlabel)" "$v" "secattr=$((1 - on))"
			echo "$on" >/proc/sys/kernel/userns_checks/secattr
		fi
		;;
	smack)
		lsm_pre ext4.init.label "$(nsb-lsm get /lsm/ext4/file "$LSM_XATTR")" "$LSM_LABEL"
		lsm_pre tmpfs.userns.setlabel "$(lsm_tmpfs_setlabel)" "error:Operation not permitted"
		lsm_pre fuse.init.label "$(lsm_fuse init)" "$LSM_LABEL open=ok"
		on=$(lsm_sw smack 1)
		v="$LSM_LABEL open=ok"
		[ "$on" = 1 ] && v="$LSM_LABEL open=error:Permission denied"
		lsm_pre fuse.userns.untrusted "$(lsm_fuse userns)" "$v" "smack=$on"
		if [ -w /proc/sys/kernel/userns_checks/smack ]; then
			echo $((1 - on)) >/proc/sys/kernel/userns_checks/smack
			v="$LSM_LABEL open=ok"
			[ "$on" = 0 ] && v="$LSM_LABEL open=error:Permission denied"
			lsm_pre fuse.userns.untrusted.flipped "$(lsm_fuse userns)" "$v" "smack=$((1 - on))"
			echo "$on" >/proc/sys/kernel/userns_checks/smack
		fi
		;;
	*)
		lsm_pre active none none
		;;
	esac
	msg "PROBE lsm.pre result $LSM_PRE_OK"
}
