#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t77-kernel-identity.sh — the kernel's identity and the host command
# reach the results, as data, without a real boot: write_meta takes the
# new meta.json keys; run-qemu.sh --replay with --kernel-meta and
# --context fills the context (an old meta.json without the new keys
# too); ab.sh with a stand-in QEMU records its own command line in the
# manifest and every results file, and the check-cost report prints it;
# contrib/nsbench-ci.sh hands its base, head and run id to ab.sh.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need_stand_in

evil="it's \$(touch $tmp/m1) \`touch $tmp/m2\` \"q\"
line two"

# --- write_meta ------------------------------------------------------------
(
	# shellcheck source=scripts/kernel/lib.sh
	. "$top/scripts/kernel/lib.sh"
	write_meta "$tmp/meta.json" key=k source_commit=abc \
		series_sha256="sha256:00" series="$evil" build_seconds:=7
)
[ "$(jq -r .series "$tmp/meta.json")" = "$evil" ] &&
	[ "$(jq -r .series_sha256 "$tmp/meta.json")" = sha256:00 ] &&
	[ "$(jq .build_seconds "$tmp/meta.json")" = 7 ]
ok $? "write_meta: keys with digits, any value as data"
(. "$top/scripts/kernel/lib.sh"; write_meta "$tmp/bad.json" 9x=1) \
	2>/dev/null
[ $? != 0 ] && [ ! -f "$tmp/bad.json" ]
ok $? "write_meta: a key that does not start with a letter is refused"

# --- run-qemu.sh --replay ----------------------------------------------------
mkdir -p "$tmp/k" "$tmp/replay"
echo "not a kernel" >"$tmp/k/bzImage"
echo "not an initramfs" >"$tmp/initrd"
printf '%s\n' '{"key": "test", "series": "userns-checks-toggles",' \
	'"series_sha256": "sha256:aaaa", "config_hash": "sha256:00",' \
	'"release": "6.1.192", "source": "git-tree:1111",' \
	'"source_commit": "2222", "source_describe": "v6.1-1-g2222"}' \
	>"$tmp/k/meta.json"
echo '{"key": "old", "config_hash": "sha256:11", "release": "6.1.192"}' \
	>"$tmp/old-meta.json"
{
	echo "@@NSB INIT mode=icount round=1 seed=1 aslr=0 kernel=6.1.192"
	echo "@@NSB FILE exec.json"
	echo '{"context": {"patch_series": "@SERIES@", "kernel_config_hash": "@CONFIG_HASH@", "kernel_release": "6.1.192"},'
	echo ' "benchmarks": [{"name": "x/y", "run_type": "iteration", "real_time": 1, "time_unit": "ns"}]}'
	echo "@@NSB EOF exec.json"
	echo "@@NSB DONE 0"
} >"$tmp/replay/results.raw"
: >"$tmp/replay/console.log"

replay() {
	"$top/guest/run-qemu.sh" --kernel "$tmp/k" \
		--initrd "$tmp/initrd" --replay "$tmp/replay" "$@"
}
replay --out "$tmp/o1" --series userns-checks-toggles \
	--kernel-meta "$tmp/k/meta.json" --context "nsbench_host_command=$evil" \
	--context=nsbench_ci_head=a=b >"$tmp/o1.log" 2>&1
ok $? "run-qemu.sh --replay --kernel-meta --context"
c=$tmp/o1/exec.json
[ "$(jq -r .context.kernel_source "$c")" = git-tree:1111 ] &&
	[ "$(jq -r .context.kernel_source_commit "$c")" = 2222 ] &&
	[ "$(jq -r .context.kernel_source_describe "$c")" = v6.1-1-g2222 ] &&
	[ "$(jq -r .context.patch_series_sha256 "$c")" = sha256:aaaa ] &&
	[ "$(jq -r .context.kernel_build_key "$c")" = test ] &&
	[ "$(jq -r .context.kernel_config_hash "$c")" = sha256:00 ]
ok $? "... the kernel's meta.json in the context"
[ "$(jq -r .context.nsbench_host_command "$c")" = "$evil" ] &&
	[ "$(jq -r .context.nsbench_ci_head "$c")" = a=b ]
ok $? "... --context values as given (quotes, \$(...), newline: data)"

replay --out "$tmp/o2" --kernel-meta "$tmp/old-meta.json" \
	>"$tmp/o2.log" 2>&1 &&
	[ "$(jq -r .context.kernel_config_hash "$tmp/o2/exec.json")" = sha256:11 ] &&
	[ "$(jq '.context | has("kernel_source") or has("patch_series_sha256")' \
		"$tmp/o2/exec.json")" = false ]
ok $? "an old meta.json: what it has, no empty keys"

st=0
for bad in "--context Bad=1" "--context novalue" "--context =x" \
	   "--kernel-meta $tmp/initrd" "--kernel-meta $tmp/none.json"; do
	# shellcheck disable=SC2086
	replay --out "$tmp/o3" $bad >"$tmp/o3.log" 2>&1
	{ [ $? = 2 ] && [ ! -e "$tmp/o3" ]; } || st=1
done
ok $st "bad --context or --kernel-meta: refused before anything runs"

# --- ab.sh with a stand-in QEMU ----------------------------------------------
cat >"$tmp/qemu" <<'EOF'
#!/bin/bash
[ "${1:-}" = --version ] && { echo "QEMU emulator version 0.0 (stand-in)"; exit 0; }
ser=()
while [ $# -gt 0 ]; do
	[ "$1" = -serial ] && { ser+=("${2#file:}"); shift; }
	shift
done
{
	echo "@@NSB INIT mode=icount round=1 seed=1 aslr=0 kernel=6.1.192"
	echo "@@NSB FILE exec.json"
	echo '{"context": {"nsbench_mode": "icount", "nsbench_round": "1", "nsbench_seed": "1", "nsbench_side": "@SIDE@", "nsbench_boot": "@BOOT@", "patch_series": "@SERIES@", "kernel_config_hash": "@CONFIG_HASH@", "nsbench_check": "mnt_may_suid", "nsbench_check_applied": "yes", "nsbench_time_unit_meaning": "virtual ns = guest instructions"}, "benchmarks": [{"name": "sys/exec/vfork/bin/init/depth:0/manual_time", "run_type": "iteration", "iterations": 100, "real_time": 70.025, "cpu_time": 1, "time_unit": "us", "nsb_on": 70.025, "nsb_off1": 70.0, "nsb_off2": 70.0}]}'
	echo "@@NSB EOF exec.json"
	echo "@@NSB DONE 0"
} >"${ser[1]}"
cp "${ser[1]}" "${ser[0]}"
EOF
chmod +x "$tmp/qemu"
args=(--checks --kernel "$tmp/k" --mode icount --rounds 1 --jobs 1
      --out "$tmp/r" --context "nsbench_ci_base=$evil")
QEMU=$tmp/qemu "$top/scripts/ab.sh" "${args[@]}" >"$tmp/ab.log" 2>&1
ok $? "ab.sh --checks with a stand-in QEMU"
# the recorded command, run through sh, gives back ab.sh's arguments
cmd=$(jq -r .host_command "$tmp/r/manifest.json")
sh -c 'printargs() { printf "%s\0" "$@"; }; eval "printargs $1"' sh "$cmd" \
	>"$tmp/got"
printf '%s\0' "$top/scripts/ab.sh" "${args[@]}" >"$tmp/want"
cmp -s "$tmp/got" "$tmp/want"
ok $? "manifest.json: host_command gives back the exact arguments"
f=$(ls "$tmp"/r/B/*.json | head -n 1)
[ "$(jq -r .context.nsbench_host_command "$f")" = "$cmd" ] &&
	[ "$(jq -r .context.nsbench_ci_base "$f")" = "$evil" ] &&
	[ "$(jq -r .context.kernel_source_describe "$f")" = v6.1-1-g2222 ]
ok $? "results: the host command, --context and the kernel's identity"
grep -q '^Reproduce' "$tmp/r/report.txt" &&
	grep -qF "$top/scripts/ab.sh --checks" "$tmp/r/report.txt" &&
	grep -q '^ *source git 2222 (v6.1-1-g2222)$' "$tmp/r/report.txt"
ok $? "the check-cost report: kernel source and the host command"

QEMU=$tmp/qemu "$top/scripts/ab.sh" --checks --kernel "$tmp/k" \
	--context 'A=1' --out "$tmp/r2" >"$tmp/ab2.log" 2>&1
[ $? = 2 ] && [ ! -e "$tmp/r2" ] && grep -q -- '--context' "$tmp/ab2.log"
ok $? "ab.sh: a bad --context key fails before any long step"

# --- nsbench-ci.sh passes its commits to ab.sh ---------------------------
build=${NSB_BUILD:-$top/build}
case "$build" in /*) ;; *) build=$top/$build ;; esac
git init -q "$tmp/linux"
for c in base head; do
	git -C "$tmp/linux" -c user.name=t -c user.email=t@t commit -q \
		--allow-empty -m "$c"
done
base=$(git -C "$tmp/linux" rev-parse HEAD~1)
head=$(git -C "$tmp/linux" rev-parse HEAD)
# ab.sh stand-in: its arguments, one a line; the fixtures as results
cat >"$tmp/ci-ab.sh" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"${FAKE_LOG:?}"
while [ $# -gt 0 ]; do [ "$1" = --out ] && out=$2; shift; done
mkdir -p "$out/A" "$out/B"
cp "$FAKE_FIX/icount-base.json" "$out/A/r01-ab.json"
cp "$FAKE_FIX/icount-same.json" "$out/B/r01-ab.json"
EOF
chmod +x "$tmp/ci-ab.sh"
mkdir -p "$tmp/ci"
(cd "$tmp/ci" && NSB_BUILD=$build NSB_AB=$tmp/ci-ab.sh \
	FAKE_LOG=$tmp/ci/ab.args FAKE_FIX=$top/tests/fixtures/history \
	"$top/contrib/nsbench-ci.sh" --ksrc "$tmp/linux" --head "$head" \
	--base "$base" --history "$tmp/ci/h.jsonl" --run-id job1 \
	--out out) >"$tmp/ci.log" 2>&1
grep -qx "nsbench_ci_head=$head" "$tmp/ci/ab.args" &&
	grep -qx "nsbench_ci_base=$base" "$tmp/ci/ab.args" &&
	grep -qx "nsbench_ci_run_id=job1" "$tmp/ci/ab.args" &&
	[ "$(grep -c -x -- --context "$tmp/ci/ab.args")" = 3 ]
ok $? "nsbench-ci.sh: base, head and run id as ab.sh --context"

! ls "$tmp"/m[0-9] >/dev/null 2>&1
ok $? "no value ran as a command"

tap_done
