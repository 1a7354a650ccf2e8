# SPDX-License-Identifier: GPL-2.0
# Activate selinux with the guest's policy loaded in permissive mode
# (guest/lsm/setup.sh reads nsb.selinux=; the default is enforcing).
lsm=selinux nsb.selinux=permissive
