# SPDX-License-Identifier: GPL-2.0
# Activate selinux (built in, inactive by default: CONFIG_LSM="").
lsm=selinux
