#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/chunkdiff.sh — what moved between two runs of the cache-model
# plugin's chunk dumps (NSB_CACHESIM_ARGS=chunks=1, cachesim.tsv of a
# boot): per state, the mean instructions per op over each run's kept
# chunks, and the kernel functions whose mean per op moved most, B - A.
# With caller= in the dump, '<NAME' rows are the listed functions'
# instructions charged to NAME.
#
#   chunkdiff.sh [--state S] [--top N] [--min X] A.tsv RUN_A B.tsv RUN_B
#
# RUN: the run's nsb_run_id (the results file's entry; one file may be
# given twice, two of its runs compared).  S: 0 on, 1 off1, 2 off2
# (default all three).  N: rows per state (default 15).  X: the least
# |B - A| per op shown (default 0.3).  A chunk counts where the run's
# #keep line keeps it (every chunk if the run has none), as the central
# mean takes them.  Exit 2 on bad arguments or a run not in its file.

set -u

die() {
	printf 'chunkdiff.sh: %s\n' "$*" >&2
	exit 2
}

states='0 1 2' top=15 min=0.3
while [ $# -gt 0 ]; do
	case $1 in
	--state) [ $# -ge 2 ] || die "--state needs a value"
		case $2 in 0|1|2) states=$2 ;; *) die "--state: 0, 1 or 2, not '$2'" ;; esac
		shift 2 ;;
	--top) [ $# -ge 2 ] || die "--top needs a value"
		case $2 in ''|*[!0-9]*) die "--top: a count, not '$2'" ;; esac
		top=$2; shift 2 ;;
	--min) [ $# -ge 2 ] || die "--min needs a value"
		[[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--min: a number, not '$2'"
		min=$2; shift 2 ;;
	-h|--help) sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -eq 4 ] || die "usage: chunkdiff.sh [--state S] [--top N] [--min X] A.tsv RUN_A B.tsv RUN_B"
for f in "$1" "$3"; do
	{ [ -f "$f" ] && [ -r "$f" ]; } || die "'$f': not a readable file"
	[ -s "$f" ] || die "'$f': empty"
done
for r in "$2" "$4"; do
	case $r in ''|*[!0-9]*) die "'$r': a run id is a number" ;; esac
done
# awk takes an argument NAME=VALUE as an assignment: ./ makes it a path
a=$1 b=$3
case $a in /*) ;; *) a=./$a ;; esac
case $b in /*) ;; *) b=./$b ;; esac

# One pass over each file, its own run only; then per state and side the
# kept chunks' means, and per function the difference, sorted by size.
# (the paths go through the environment: awk -v would read backslashes)
FA=$1 FB=$3 awk -F'\t' -v ra="$2" -v rb="$4" -v states="$states" \
    -v top="$top" -v min="$min" '
FNR == 1 { side++ }
$1 !~ /^#(chunk|cfn|caller|keep)$/ { next }
$2 != (side == 1 ? ra : rb) { next }
$1 == "#chunk" {
	st[side, $3] = $4; ops[side, $3] = $5; ins[side, $3] = $6
	chunk[side, ++nc[side]] = $3; next
}
$1 == "#cfn" { fn[side, $3, $4] += $5; next }
$1 == "#caller" { fn[side, $3, "<" $4] += $5; next }
$1 == "#keep" { keep[side] = $3 }
function counts(s, i) {
	return st[s, i] != "" && ops[s, i] &&
	       (!(s in keep) || substr(keep[s], i + 1, 1) == "1")
}
function fabs(x) { return x < 0 ? -x : x }
END {
	if (!nc[1]) { printf "chunkdiff.sh: run %s not in %s\n", ra, ENVIRON["FA"] > "/dev/stderr"; exit 2 }
	if (!nc[2]) { printf "chunkdiff.sh: run %s not in %s\n", rb, ENVIRON["FB"] > "/dev/stderr"; exit 2 }
	# one pass over the chunks, one over the functions: per side and state
	for (s = 1; s <= 2; s++)
		for (j = 1; j <= nc[s]; j++) {
			i = chunk[s, j]
			if (!counts(s, i))
				continue
			n[s, st[s, i]]++; tot[s, st[s, i]] += ins[s, i] / ops[s, i]
		}
	for (k in fn) {
		split(k, key, SUBSEP)
		s = key[1]; i = key[2]
		if (!counts(s, i))
			continue
		mean[s, st[s, i], key[3]] += fn[k] / ops[s, i]
		names[key[3]] = 1
	}
	ns = split(states, want, " ")
	for (w = 1; w <= ns; w++) {
		s0 = want[w]
		for (s = 1; s <= 2; s++)
			m[s] = n[s, s0] ? tot[s, s0] / n[s, s0] : 0
		fflush()
		printf "state %s: A %.1f (%d kept)  B %.1f (%d kept)  B-A %+.1f\n", s0,
			m[1], n[1, s0], m[2], n[2, s0], m[2] - m[1]
		fflush()
		cmd = "sort -t \"\t\" -k1,1gr | head -n " top
		for (f in names) {
			a = n[1, s0] ? mean[1, s0, f] / n[1, s0] : 0
			b = n[2, s0] ? mean[2, s0, f] / n[2, s0] : 0
			if (fabs(b - a) >= min && fabs(b - a) > 0)
				printf "%.6f\t   %+9.2f  %s  (A %.1f)\n", fabs(b - a), b - a, f, a | cmd
		}
		close(cmd)
	}
}' "$a" "$b" | cut -f2-
exit "${PIPESTATUS[0]}"
