# SPDX-License-Identifier: GPL-2.0
# userns-checks-toggles: every upstream check off from boot.
userns_checks=off
