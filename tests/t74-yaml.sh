#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t74-yaml.sh — contrib/'s YAML as its readers take it: yamllint (Debian's,
# with contrib/.yamllint) over every file, the GitLab include that must
# not impose stages or globals on the includer, the GitHub workflow's
# triggers, and the LAVA test definition run the way LAVA runs it — its
# steps in a shell, with stand-ins for nsbench-bench and lava-test-case —
# plus the helper on fixtures: one lava-test-case per benchmark, numeric
# measurements and units, skip as skip, names LAVA can take, no eval.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$top/tests/fixtures/history
case "$NSB" in /*) ;; *) NSB=$top/$NSB ;; esac
lava=$top/contrib/lava/nsbench-lava.sh

# --- yamllint ------------------------------------------------------------
if command -v yamllint >/dev/null; then
	yamllint -s -c "$top/contrib/.yamllint" "$top/contrib" >"$tmp/lint" 2>&1
	ok $? "yamllint -s contrib/ (contrib/.yamllint)"
	sed 's/^/# /' "$tmp/lint"
else
	skip 1 "yamllint not installed (Debian yamllint)"
fi

# yq EXPR FILE: a Python expression over the parsed YAML file (d), its
# value printed; yamllint brings PyYAML along.
yq() {
	python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[2]))
print(eval(sys.argv[1]))' "$1" "$2" 2>/dev/null
}

if python3 -c 'import yaml' 2>/dev/null; then
	gl=$top/contrib/gitlab-ci.yml
	gh=$top/contrib/github-actions.yml
	def=$top/contrib/lava/nsbench.yaml
	[ "$(yq 'sorted(k for k in d if not k.startswith(".") and ":" not in k)' "$gl")" = "[]" ]
	ok $? "gitlab-ci.yml: no stages, variables, default or workflow for the includer"
	# shellcheck disable=SC2016 # GitLab's variables, not the shell's
	rule='$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH &&
$CI_PIPELINE_SOURCE != "merge_request_event"'
	[ "$(yq 'd["nsbench:main"]["rules"][0]["if"]' "$gl")" = \
	  "$(printf '%s' "$rule" | tr '\n' ' ')" ]
	ok $? "gitlab-ci.yml: the default-branch job runs for schedule, web, API too"
	[ "$(yq 'sorted(d[True].keys())' "$gh")" = \
	  "['pull_request', 'push', 'schedule', 'workflow_dispatch']" ]
	ok $? "github-actions.yml: pull_request, push, schedule, workflow_dispatch"
	! grep -q 'fetch-depth: 0' "$gh" && ! grep -q 'GIT_DEPTH: "0"' "$gl"
	ok $? "neither clones all of the kernel's history"
	[ "$(yq 'd["metadata"]["format"]' "$def")" = "Lava-Test Test Definition 1.0" ] &&
		[ "$(yq 'd["metadata"]["name"]' "$def")" = nsbench ] &&
		[ -n "$(yq 'd["metadata"]["description"]' "$def")" ]
	ok $? "LAVA definition: metadata format, name, description"
	# the checks jobs measure the tree under test,
	# build once, and the caches and groups are keyed per writer.
	ghj='d["jobs"]'
	[ "$(yq "[s['run'] for j in ('checks-kernels', 'checks', 'checks-report') for s in ${ghj}[j]['steps'] if 'nsbench-ci.sh' in s.get('run', '')].__len__()" "$gh")" = 3 ] &&
		! grep -q 'scripts/ab.sh' "$gh" && ! grep -q 'scripts/ab.sh' "$gl"
	ok $? "checks jobs: nsbench-ci.sh kernels, shard, report (it decides; no ab.sh in YAML)"
	[ "$(yq "[s.get('uses', '') for s in ${ghj}['checks']['steps'] if 'cache' in s.get('uses', '')]" "$gh")" = "['actions/cache@v4']" ] &&
		yq "[s for s in ${ghj}['checks']['steps'] if 'cache' in s.get('uses', '')][0]['with']['key']" "$gh" | grep -q 'matrix.shard' &&
		yq "[s for s in ${ghj}['checks']['steps'] if s.get('uses', '').startswith('actions/download-artifact')][0]['with']['name']" "$gh" | grep -qx nsbench-checks-kernels
	ok $? "GitHub shards: the kernels as an artifact, a cache key per shard"
	yq "${ghj}['ab']['concurrency']['group']" "$gh" | grep -q 'pull_request.number' &&
		! yq "${ghj}['ab']['concurrency']['group']" "$gh" | grep -q 'run_id' &&
		yq 'd["concurrency"]["group"]' "$gh" | grep -q 'pull_request.number'
	ok $? "GitHub: a PR's concurrency group is keyed on its number, not the run"
	# shellcheck disable=SC2016 # GitHub's expressions
	[ "$(grep -c 'nsbench-history-${{ env.CELL }}-${{ github.run_id }}-${{$' "$gh")" = 2 ] &&
		[ "$(grep -c '^ *github.run_attempt }}$' "$gh")" -ge 2 ]
	ok $? "GitHub: the history cache key has run_attempt (a re-run saves its own)"
	# shellcheck disable=SC2016 # GitLab's variables
	yq 'd["nsbench:main"]["resource_group"]' "$gl" | grep -q '^nsbench-history-\$SERIES-\$MODE$'
	ok $? "GitLab: resource_group per history (cell), not one for all cells"
	[ "$(yq 'all(d[j].get("rules") or d[d[j]["extends"]].get("rules") for j in ("nsbench:checks-kernels", "nsbench:checks", "nsbench:checks-report"))' "$gl")" = True ]
	ok $? "GitLab: the checks jobs have rules"
	yq '"\n".join(d["run"]["steps"])' "$def" >"$tmp/steps"
	yq '"\n".join("%s=%s" % kv for kv in d["params"].items())' "$def" \
		>"$tmp/params"
	grep -q 'contrib/lava/nsbench-lava.sh' "$tmp/steps" && [ -x "$lava" ]
	ok $? "LAVA definition: run: steps: call contrib/lava/nsbench-lava.sh"
else
	skip 13 "python3 with PyYAML (Debian python3-yaml) not installed"
fi

# --- the GitHub workflow's "commits" step ---------------------------------
# Its script run as Actions would, with a stand-in curl for the compare
# API: which base each trigger gets.  (The step is a job of its own now,
# "commits", whose outputs the ab and the checks jobs both need.)
if python3 -c 'import yaml' 2>/dev/null; then
	python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
s = [x for x in d["jobs"]["commits"]["steps"] if x.get("name") == "commits"]
print(s[0]["run"])' "$gh" >"$tmp/commits.sh"
	mkdir -p "$tmp/curlbin"
	cat >"$tmp/curlbin/curl" <<'EOF'
#!/bin/sh
for a in "$@"; do last=$a; done
echo "$last" >>"${CURL_LOG:?}"
echo '{"merge_base_commit": {"sha": "mb0123"}}'
EOF
	chmod +x "$tmp/curlbin/curl"
	# commits EVENT TIP: "base head " as the step outputs them
	commits() {
		: >"$tmp/ghout"
		GITHUB_OUTPUT=$tmp/ghout GITHUB_EVENT_NAME=$1 TIP=$2 \
			HEAD_SHA=head0 GITHUB_API_URL=https://api.invalid \
			GITHUB_REPOSITORY=o/linux GH_TOKEN=t CURL_LOG=$tmp/curl.log \
			PATH="$tmp/curlbin:$PATH" bash -eo pipefail \
			"$tmp/commits.sh" >/dev/null 2>&1 || echo "exit $?"
		sed -n 's/^base=//p; s/^head=//p' "$tmp/ghout" | tr '\n' ' '
	}
	[ "$(commits schedule '')" = " head0 " ] &&
		[ "$(commits workflow_dispatch '')" = " head0 " ]
	ok $? "GitHub schedule, workflow_dispatch: no base, the head commit"
	[ "$(commits push 0000000000000000000000000000000000000000)" = " head0 " ]
	ok $? "GitHub push of a new branch (before = zeros): no base"
	: >"$tmp/curl.log"
	[ "$(commits pull_request tip0)" = "mb0123 head0 " ] &&
		grep -q '/repos/o/linux/compare/tip0\.\.\.head0' "$tmp/curl.log"
	ok $? "GitHub pull_request: the compare API's merge base, not the base tip"
else
	skip 3 "python3 with PyYAML (Debian python3-yaml) not installed"
fi

# --- stand-ins -----------------------------------------------------------
mkdir -p "$tmp/bin" "$tmp/lavabin"
# lava-test-case: one line per call, its arguments separated by '|'
cat >"$tmp/lavabin/lava-test-case" <<'EOF'
#!/bin/sh
log=${LAVA_LOG:?}
sep=''
for a in "$@"; do printf '%s%s' "$sep" "$a" >>"$log"; sep='|'; done
echo >>"$log"
EOF
# nsbench-bench: writes the fixture named by FAKE_RESULTS to --out=
cat >"$tmp/bin/nsbench-bench" <<'EOF'
#!/bin/sh
for a in "$@"; do
	case "$a" in --out=*) cp "${FAKE_RESULTS:?}" "${a#--out=}" ;; esac
done
EOF
chmod +x "$tmp/lavabin/lava-test-case" "$tmp/bin/nsbench-bench"
ln -s "$NSB" "$tmp/bin/nsbench"

# report LOG ARGS...: the helper with the lava-test-case stand-in.
report() {
	log=$1
	shift
	: >"$log"
	LAVA_LOG=$log PATH="$tmp/lavabin:$tmp/bin:$PATH" "$lava" "$@" >"$tmp/out" 2>&1
}

# --- the helper on fixtures ---------------------------------------------
report "$tmp/err.log" --results "$FIX/icount-error.json"
ok $? "nsbench-lava.sh --results on a run with an error and a skip"
grep -qx 'fix_exec_plain|--result|pass|--measurement|150000|--units|insn' "$tmp/err.log"
ok $? "pass: the median as --measurement, --units insn in icount mode"
grep -qx 'fix_open_dev|--result|fail' "$tmp/err.log"
ok $? "a benchmark that failed: fail, no measurement"
grep -qx 'fix_mount_mqueue|--result|skip' "$tmp/err.log"
ok $? "a skipped benchmark: skip"
[ "$(wc -l <"$tmp/err.log")" = 3 ]
ok $? "one lava-test-case per benchmark (3)"

"$NSB" gate --history="$tmp/h.jsonl" --baseline="$FIX/icount-base.json" \
	--format=ktap "$FIX/icount-slower.json" >"$tmp/gate.ktap"
report "$tmp/gate.log" --gate "$tmp/gate.ktap" --results "$FIX/icount-slower.json"
grep -qx 'fix_exec_plain|--result|fail|--measurement|154500|--units|insn' "$tmp/gate.log" &&
	grep -q '^fix_open_dev|--result|pass|' "$tmp/gate.log"
ok $? "--gate: the regression is a fail, with its measurement"

report "$tmp/native.log" --results "$top/tests/fixtures/stats/base.json"
awk -F'|' '$3 == "pass" && ($5 !~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ ||
	$7 != "ns") { bad = 1 } END { exit bad || NR == 0 }' "$tmp/native.log"
ok $? "native: every measurement a number, units ns ($(wc -l <"$tmp/native.log") cases)"

# Names from elsewhere: blanks, markup, shell syntax, a clash after
# sanitising.  Nothing is evaluated; every name is unique and LAVA-safe.
jq '.benchmarks |= map(.name |= "odd name/<x>:$(touch PWNED)`id`") +
	map(.name |= "odd_name__x____touch_PWNED__id_")' \
	"$FIX/icount-base.json" >"$tmp/odd.json"
(cd "$tmp" && report "$tmp/odd.log" --results "$tmp/odd.json")
cut -d'|' -f1 "$tmp/odd.log" >"$tmp/names"
! grep -qv '^[A-Za-z0-9._-]*$' "$tmp/names" &&
	[ "$(sort -u "$tmp/names" | wc -l)" = "$(wc -l <"$tmp/odd.log")" ] &&
	[ "$(wc -l <"$tmp/odd.log")" -ge 2 ]
ok $? "names: only [A-Za-z0-9._-], unique after sanitising ($(tr '\n' ' ' <"$tmp/names"))"
[ ! -e "$tmp/PWNED" ]
ok $? "values are data: a name with \$(...) and backquotes ran nothing"

# --- the definition's steps, as LAVA runs them --------------------------
# A test shell: the parameters set, the steps run in the checkout.
# def_steps RESULTS [LINE]: the steps run, LINE after the parameters, the
# stand-in nsbench giving the fixture RESULTS; the log in $tmp/def.log.
def_steps() {
	{
		sed "s/=\(.*\)/='\1'/" "$tmp/params"
		echo "NSBENCH_BIN='$tmp/bin'"
		[ -z "${2:-}" ] || echo "$2"
		cat "$tmp/steps"
	} >"$tmp/run.sh"
	: >"$tmp/def.log"
	(cd "$tmp/dut" && LAVA_LOG="$tmp/def.log" \
		FAKE_RESULTS="$FIX/$1" \
		PATH="$tmp/lavabin:$PATH" sh -e "$tmp/run.sh") >"$tmp/out" 2>&1
}
if [ -s "$tmp/steps" ]; then
	mkdir -p "$tmp/dut"
	ln -s "$top/contrib" "$tmp/dut/contrib"
	def_steps icount-error.json
	ok $? "the definition's steps run in a test shell"
	cmp -s "$tmp/def.log" "$tmp/err.log"
	ok $? "... and report the same test cases as the helper on the results"
	def_steps icount-slower.json "BASELINE='$FIX/icount-base.json'"
	grep -q '^fix_exec_plain|--result|fail|' "$tmp/def.log" &&
		grep -q '^not ok 1 fix/exec/plain' "$tmp/dut/nsbench-results/gate.ktap"
	ok $? "BASELINE=FILE: nsbench gate turns the regression into a fail"
else
	skip 3 "no steps read from the LAVA definition"
fi

tap_done
