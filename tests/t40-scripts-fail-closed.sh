#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel and guest scripts fail closed: a typo'd series, a series that
# names a missing, empty or broken patch, a bad option or number, each
# ends the run non-zero with one clear line, before anything long starts
# (no source extraction in NSB_CACHE, no QEMU launched, no perf sample).
# meta.json and the guest's results files keep any value as data.  No
# kernel is built: NSB_CACHE is a temporary directory, the tarball a fake
# one and QEMU a stand-in that notes it was started.

# Literal $(...) in single quotes is the point of several checks here.
# shellcheck disable=SC2016
set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
export NSB_CACHE=$tmp/cache

command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
command -v git >/dev/null || { echo "1..0 # SKIP git not installed"; exit 0; }

# A source tarball that extracts in no time: if a check came after the
# extraction, $NSB_CACHE/src would show it.
mkdir -p "$tmp/linux-fake" "$tmp/linux-fake-7.3" "$tmp/linux-fake-junk" "$NSB_CACHE"
# 100 KB like the real one: reading its head must not SIGPIPE the reader
{ printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\nall:\n'
  yes '# padding, as long as a real top Makefile' | head -n 2500; } \
	>"$tmp/linux-fake/Makefile"
printf 'VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 0\nall:\n' >"$tmp/linux-fake-7.3/Makefile"
echo 'all:' >"$tmp/linux-fake-junk/Makefile"
for d in linux-fake linux-fake-7.3 linux-fake-junk; do
	tar -C "$tmp" -cJf "$tmp/$d.tar.xz" "$d"
done
export NSB_TARBALL=$tmp/linux-fake.tar.xz

# A stand-in QEMU: --version answers, anything else leaves a mark.
cat >"$tmp/qemu" <<EOF
#!/bin/sh
[ "\${1:-}" = --version ] && { echo "QEMU emulator version 0.0 (stand-in)"; exit 0; }
touch "$tmp/qemu-started"
exit 1
EOF
chmod +x "$tmp/qemu"
export QEMU=$tmp/qemu
: >"$tmp/kernel"
: >"$tmp/initrd"

ms() {
	echo $(($(date +%s%N) / 1000000))
}

# refused NAME PATTERN CMD...: CMD exits non-zero, quickly (5 s guards
# against a long step: a real extraction or boot takes minutes; the time
# is in the test's name), with one line on stderr matching PATTERN,
# nothing on stdout, and nothing started: no source in the cache, no QEMU.
refused() {
	local name=$1 pat=$2 t0 t1 rc lines
	shift 2
	rm -rf "$NSB_CACHE" "$tmp/qemu-started"
	mkdir -p "$NSB_CACHE"
	t0=$(ms)
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	t1=$(ms)
	lines=$(wc -l <"$tmp/err")
	[ "$rc" != 0 ] && [ "$lines" = 1 ] && grep -q -- "$pat" "$tmp/err" &&
		[ ! -s "$tmp/out" ] && [ $((t1 - t0)) -lt 5000 ] &&
		[ -z "$(ls -A "$NSB_CACHE")" ] && [ ! -e "$tmp/qemu-started" ]
	ok $? "$name: exit $rc in $((t1 - t0)) ms, one line, nothing started"
	if [ "$rc" = 0 ] || [ "$lines" != 1 ] || ! grep -q -- "$pat" "$tmp/err"; then
		sed 's/^/# stderr: /' "$tmp/err"
		find "$NSB_CACHE" -mindepth 1 | sed 's/^/# cache: /'
	fi
}

build=$top/scripts/kernel/build.sh
refused "build.sh --series typo" "series 'no-such-series'" \
	"$build" --series no-such-series
# a source whose version has no series: the versions that have it
NSB_TARBALL=$tmp/linux-fake-7.3.tar.xz refused \
	"build.sh: a 7.3 source, a series only 6.1 has" \
	"has no version for Linux 7.3 .*it exists for: 6.1" \
	"$build" --series userns-checks-toggles
NSB_TARBALL=$tmp/linux-fake-junk.tar.xz refused \
	"build.sh: a tarball with no kernel version" \
	"no VERSION/PATCHLEVEL" "$build" --series none
NSB_KERNEL=six refused "build.sh: NSB_KERNEL not a version" \
	"must be a version such as 6.1" "$build" --series none
mkdir -p "$tmp/s-missing"
printf '# a comment\n0001-real.patch\n0002-missing.patch\n' >"$tmp/s-missing/series"
cat >"$tmp/s-missing/0001-real.patch" <<'EOF'
--- a/Makefile
+++ b/Makefile
@@ -1 +1 @@
-all:
+all: ;
EOF
refused "series naming a missing patch" "patch '0002-missing.patch' not found" \
	"$build" --series "$tmp/s-missing"
mkdir -p "$tmp/s-empty"
echo 0001-empty.patch >"$tmp/s-empty/series"
: >"$tmp/s-empty/0001-empty.patch"
refused "series naming an empty patch" "is empty" "$build" --series "$tmp/s-empty"
mkdir -p "$tmp/s-junk"
echo 0001-junk.patch >"$tmp/s-junk/series"
echo 'not a patch at all' >"$tmp/s-junk/0001-junk.patch"
refused "series naming a file that is no patch" "is not a patch" \
	"$build" --series "$tmp/s-junk"
mkdir -p "$tmp/s-none"
echo '# nothing yet' >"$tmp/s-none/series"
refused "series naming no patch" "names no patch" "$build" --series "$tmp/s-none"
mkdir -p "$tmp/s-p0"
echo '0001-real.patch -p0' >"$tmp/s-p0/series"
cp "$tmp/s-missing/0001-real.patch" "$tmp/s-p0/"
refused "series with -p0" "only -p1" "$build" --series "$tmp/s-p0"
mkdir -p "$tmp/s-noseries"
refused "series directory without a series file" "series not found" \
	"$build" --series "$tmp/s-noseries"
refused "build.sh --jobs abc" "--jobs must be a whole number" \
	"$build" --series none --jobs abc
refused "build.sh --jobs 0" "--jobs must be at least 1" \
	"$build" --series none --jobs=0
refused "build.sh --series without a value" "--series needs a value" \
	"$build" --series
refused "build.sh --ref without --ksrc" "--ref needs --ksrc" \
	"$build" --series none --ref v6.1
refused "build.sh --ksrc that is no git tree" "is not a git tree" \
	"$build" --series none --ksrc "$tmp"
refused "build.sh --config missing" "config fragment" \
	"$build" --series none --config "$tmp/no.config"
refused "build.sh unknown option" "unknown option '--serie'" \
	"$build" --serie none
NSB_TARBALL=$tmp/none.tar.xz refused "build.sh without the source tarball" \
	"not found: install linux-source-6.1" "$build" --series none

# The good series passes every check and gets as far as the (fake) source.
rm -rf "$NSB_CACHE"
"$build" --series "$tmp/s-missing" >/dev/null 2>"$tmp/err"
grep -q "0002-missing" "$tmp/err"
ok $? "the checks name the first bad patch, not the good one before it"

qemu_run=$top/guest/run-qemu.sh
q=(--kernel "$tmp/kernel" --initrd "$tmp/initrd" --out "$tmp/q")
refused "run-qemu.sh --mode bogus" "--mode must be icount, tcg or kvm" \
	"$qemu_run" "${q[@]}" --mode bogus
refused "run-qemu.sh --mode=kvmx" "--mode must be" \
	"$qemu_run" "${q[@]}" --mode=kvmx
refused "run-qemu.sh --round x" "--round must be a whole number" \
	"$qemu_run" "${q[@]}" --round x
refused "run-qemu.sh --round 10000" "--round must be at most 9999" \
	"$qemu_run" "${q[@]}" --round 10000
refused "run-qemu.sh --seed 99999999999999999999" "--seed: .* too large" \
	"$qemu_run" "${q[@]}" --seed 99999999999999999999
refused "run-qemu.sh --side C" "--side must be A or B" \
	"$qemu_run" "${q[@]}" --side C
refused "run-qemu.sh --timeout 0" "--timeout must be at least 1" \
	"$qemu_run" "${q[@]}" --timeout 0
refused "run-qemu.sh --append with a newline" "printable" \
	"$qemu_run" "${q[@]}" --append "$(printf 'a\nb')"
refused "run-qemu.sh --kernel missing" "--kernel: .* not found" \
	"$qemu_run" --kernel "$tmp/nope" --initrd "$tmp/initrd" --out "$tmp/q"
refused "run-qemu.sh --boot without a value" "--boot needs a value" \
	"$qemu_run" "${q[@]}" --boot
refused "run-qemu.sh --bogus" "unknown option '--bogus'" \
	"$qemu_run" "${q[@]}" --bogus
# numbers with a leading zero are decimal, read once up front ("09: value
# too great for base" came after QEMU had started)
line=$("$qemu_run" --print-cmdline --mode icount --round 09 --seed 09 \
	--timeout 09 --boot-timeout 09 2>"$tmp/err")
rc=$?
[ $rc = 0 ] && case "$line" in
	*nsb.round=0009\ nsb.seed=0000000009*) true ;; *) false ;; esac
ok $? "run-qemu.sh --round 09 --seed 09 --timeout 09 --boot-timeout 09: decimal (exit $rc)"
# make run's variables, before the native stage (O: the binaries)
export O=$NSB_BUILD NSB_RESULTS=$tmp/results
for e in NSB_ROUNDS=0 NSB_ROUNDS=abc NSB_JOBS=0 NSB_MODE=bogus \
	NSB_BOOT_CACHE=no NSB_STOCK=yes NSB_NATIVE_FILTER=^nomatch; do
	refused "make run with $e" "${e%%=*}" env "$e" "$top/scripts/run-main.sh"
done
unset O NSB_RESULTS
refused "probe-kvm.sh FALLBACK kvm" "FALLBACK must be icount or tcg" \
	"$top/guest/probe-kvm.sh" "$tmp/kernel" "$tmp/initrd" kvm
NSB_KVM_PROBE_TIMEOUT=soon refused "probe-kvm.sh bad timeout" \
	"NSB_KVM_PROBE_TIMEOUT must be a whole number" \
	"$top/guest/probe-kvm.sh" "$tmp/kernel" "$tmp/initrd"
refused "mkinitramfs.sh without --plan" "--plan FILE is required" \
	"$top/guest/mkinitramfs.sh" --out "$tmp/i.img"
refused "mkinitramfs.sh --bench not executable" "--bench .* is not executable" \
	"$top/guest/mkinitramfs.sh" --plan "$tmp/kernel" \
	--out "$tmp/i.img" --bench "$tmp/kernel"
refused "validate.sh --rounds x" "--rounds must be a whole number" \
	"$top/scripts/validate.sh" --rounds x
refused "validate.sh --mode bogus" "--mode must be icount, tcg or kvm" \
	"$top/scripts/validate.sh" --mode bogus
refused "validate.sh --from a directory without a run" "no finished run" \
	"$top/scripts/validate.sh" --from "$tmp"
refused "perf-profile.sh unknown workload" "unknown workload 'exce'" \
	"$top/scripts/perf-profile.sh" exec exce
refused "perf-profile.sh --freq x" "--freq must be a whole number" \
	"$top/scripts/perf-profile.sh" --freq=x exec
refused "hyperfine-workloads.sh --tier typo" "--tier must be quick, full or smoke" \
	"$top/scripts/hyperfine-workloads.sh" --tier=qiuck

# meta.json: a series name, salt and release with quotes, backslashes,
# $(...) and a newline stay data (write_meta is what build.sh writes with).
evil='a"b\c$(touch '"$tmp"'/pwned)`touch '"$tmp"'/pwned2`'$'\n''}'
(
	. "$top/scripts/kernel/lib.sh"
	write_meta "$tmp/meta.json" key=0123456789abcdef series="$evil" \
		salt="'\"" release="6.1\"x" build_seconds:=42
)
[ "$(jq -r .series "$tmp/meta.json")" = "$evil" ] &&
	[ "$(jq -r .salt "$tmp/meta.json")" = "'\"" ] &&
	[ "$(jq .build_seconds "$tmp/meta.json")" = 42 ] &&
	[ ! -e "$tmp/pwned" ] && [ ! -e "$tmp/pwned2" ]
ok $? "meta.json: quotes, \$(...) and a newline in the series name stay data"
grep -q 'write_meta "$out_dir.tmp/meta.json"' "$build" &&
	! grep -q 'cat >"$out_dir.tmp/meta.json"' "$build"
ok $? "build.sh writes meta.json with write_meta (jq), not a heredoc"

# The guest's results: placeholders filled by nsbench stamp, the host's values as
# data (a series name with quotes, & and |; an --append with quotes).
mkdir -p "$tmp/replay"
{
	echo "@@NSB INIT mode=icount round=1 seed=7 aslr=0"
	echo "@@NSB FILE r.json"
	echo '{"context": {"nsbench_side": "@SIDE@", "patch_series": "@SERIES@", "nsbench_boot": "@BOOT@"}, "benchmarks": [{"name": "x/y", "run_type": "iteration", "real_time": 1, "time_unit": "ns"}]}'
	echo "@@NSB EOF r.json"
	echo "@@NSB DONE 0"
} >"$tmp/replay/results.raw"
echo "@@NSB INIT" >"$tmp/replay/console.log"
series='my "series" & | \1 $(x)'
"$qemu_run" "${q[@]}" --replay "$tmp/replay" --series "$series" --side B \
	--boot 3 --append 'nsb.x="y"' 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && [ "$(jq -r .context.patch_series "$tmp/q/r.json")" = "$series" ] &&
	[ "$(jq -r .context.nsbench_side "$tmp/q/r.json")" = B ] &&
	[ "$(jq -r .context.nsbench_boot "$tmp/q/r.json")" = 3 ] &&
	jq -r .context.nsbench_guest_cmdline "$tmp/q/r.json" | grep -q 'nsb.x="y"' &&
	[ "$(jq -r .context.nsbench_aslr "$tmp/q/r.json")" = 0 ]
ok $? "run-qemu.sh: results filled in by nsbench stamp, values stay data (exit $rc)"
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/err"
sed -i 's/"benchmarks": \[.*\]}/"benchmarks": [/' "$tmp/replay/results.raw"
"$qemu_run" "${q[@]}" --replay "$tmp/replay" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" != 0 ] && grep -q 'r.json:[0-9]*:[0-9]*: invalid JSON' "$tmp/err" &&
	grep -q 'a results file from the guest is not JSON' "$tmp/err"
ok $? "run-qemu.sh: a truncated results file from the guest fails the boot"
{
	echo "@@NSB FILE ../escape.json"
	echo '{}'
	echo "@@NSB EOF ../escape.json"
	echo "@@NSB DONE 0"
} >"$tmp/replay/results.raw"
"$qemu_run" "${q[@]}" --replay "$tmp/replay" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" != 0 ] && [ ! -e "$tmp/escape.json" ]
ok $? "run-qemu.sh: a results file name with a '/' is refused"

tap_done
