# SPDX-License-Identifier: GPL-2.0
# userns-checks-toggles: the 2015 forms (in_userns walk to NULL, seed 006 secattr skip).
userns_checks=+walk_2015,+secattr
