# SPDX-License-Identifier: GPL-2.0
# Activate smack (built in, inactive by default: CONFIG_LSM="").
lsm=smack
