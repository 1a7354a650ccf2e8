#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/guest/ab-summary.sh DIR — per-round values of an ab.sh run:
# for each benchmark, each round's median (over repetitions) on A and B,
# the paired difference B-A, and the median of the paired differences.
# A quick look only; `nsbench compare` does the statistics.  Needs jq.

set -eu

dir=${1:?usage: ab-summary.sh RESULTS-DIR}
command -v jq >/dev/null || { echo "ab-summary: jq not installed; skipped" >&2; exit 0; }

# rows: "name round seed side median unit" for every results file.
rows() {
	local f
	for f in "$dir"/A/*.json "$dir"/B/*.json; do
		[ -f "$f" ] || continue
		jq -r '. as $d | [.benchmarks[] | select((.run_type // "iteration") == "iteration" and (.error_occurred | not))]
			| group_by(.name)[] | (map(.real_time) | sort) as $v
			| [.[0].name, $d.context.nsbench_round, $d.context.nsbench_seed,
			   $d.context.nsbench_side,
			   (if ($v | length) % 2 == 1 then $v[($v | length) / 2 | floor]
			    else ($v[($v | length) / 2 - 1] + $v[($v | length) / 2]) / 2 end),
			   .[0].time_unit] | @tsv' "$f"
	done
}

rows | sort -t "$(printf '\t')" -k1,1 -k2,2n | awk -F '\t' '
	{ k = $1 SUBSEP $2; seed[k] = $3; v[k, $4] = $5; unit[$1] = $6
	  if (!($1 in seen)) { seen[$1] = 1; names[++n] = $1 }
	  if (!(($1, $2) in rs)) { rs[$1, $2] = 1; rounds[$1] = rounds[$1] " " $2 } }
	END {
	  for (i = 1; i <= n; i++) {
	    nm = names[i]; m = 0
	    printf "%s (%s)\n  round        seed            A            B          B-A\n", nm, unit[nm]
	    c = split(rounds[nm], rr, " ")
	    for (j = 1; j <= c; j++) {
	      k = nm SUBSEP rr[j]
	      a = v[k, "A"]; b = v[k, "B"]
	      if (a == "" || b == "") { printf "  %5s  %10s  %11s  %11s  %11s\n", rr[j], seed[k], a, b, "-"; continue }
	      d[++m] = b - a
	      printf "  %5s  %10s  %11.1f  %11.1f  %+11.1f\n", rr[j], seed[k], a, b, b - a
	    }
	    # median of the paired differences
	    for (x = 1; x <= m; x++) for (y = x + 1; y <= m; y++) if (d[y] < d[x]) { t = d[x]; d[x] = d[y]; d[y] = t }
	    if (m) printf "  median paired B-A: %+.1f %s over %d rounds\n\n", (m % 2 ? d[(m + 1) / 2] : (d[m / 2] + d[m / 2 + 1]) / 2), unit[nm], m
	    delete d
	  }
	}' | tee "$dir/summary.txt"
