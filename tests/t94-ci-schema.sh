#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t94-ci-schema.sh — contrib/'s CI files against their platforms' schemas,
# which yamllint (t74) does not know: a misspelt key is valid YAML.
#   - github-actions.yml: @action-validator/cli (GitHub's workflow
#     schema);
#   - gitlab-ci.yml: gitlab-ci-local's JSON schema validation (GitLab's CI
#     schema, bundled: no GitLab server is asked), on the file as a
#     project's .gitlab-ci.yml;
# each on the file as it is (valid) and on a copy with a key misspelt
# (invalid).  The validators are npm packages that `make deps`
# (scripts/deps.sh install) puts under $NSB_CACHE/npm, pinned; the test
# skips, saying so, only where they could not be installed.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
gh=$top/contrib/github-actions.yml
gl=$top/contrib/gitlab-ci.yml

# tool BIN: where deps.sh installed BIN, or nothing.
tool() {
	"$top/scripts/deps.sh" which "$1" 2>/dev/null
}

# typo FILE KEY OUT: FILE with its first "KEY:" (as a key) misspelt.
typo() {
	sed "0,/^\( *\)$2:/s//\1$2x:/" "$1" >"$3"
	! cmp -s "$1" "$3"
}

# --- GitHub -------------------------------------------------------------
av=$(tool action-validator)
if [ -n "$av" ]; then
	"$av" "$gh" >"$tmp/gh.out" 2>&1
	ok $? "action-validator: contrib/github-actions.yml is a valid workflow"
	diag "$tmp/gh.out"
	typo "$gh" timeout-minutes "$tmp/typo.yml" &&
		! "$av" "$tmp/typo.yml" >"$tmp/gh-typo.out" 2>&1 &&
		grep -q "timeout-minutesx" "$tmp/gh-typo.out"
	ok $? "action-validator: a misspelt key (timeout-minutesx) fails, named"
	typo "$gh" cancel-in-progress "$tmp/typo2.yml" &&
		! "$av" "$tmp/typo2.yml" >/dev/null 2>&1
	ok $? "action-validator: a misspelt concurrency key fails too"
else
	skip 3 "action-validator not installed: scripts/deps.sh install could not npm install @action-validator/cli (no npm registry?)"
fi

# --- GitLab -------------------------------------------------------------
# glci FILE: gitlab-ci-local on FILE as the .gitlab-ci.yml of a fresh git
# repository (it reads the project's file, in a work tree): exit status.
glci() {
	rm -rf "$tmp/gl"
	mkdir -p "$tmp/gl"
	cp "$1" "$tmp/gl/.gitlab-ci.yml"
	git -C "$tmp/gl" init -q &&
		git -C "$tmp/gl" add .gitlab-ci.yml &&
		git -C "$tmp/gl" -c user.name=t -c user.email=t@t commit -q -m ci &&
		(cd "$tmp/gl" && HOME=$tmp "$gcl" --list-all \
			--json-schema-validation=true) >"$tmp/gl.out" 2>&1
}

gcl=$(tool gitlab-ci-local)
if [ -n "$gcl" ]; then
	glci "$gl"
	ok $? "gitlab-ci-local: contrib/gitlab-ci.yml is valid against GitLab's CI schema"
	grep -q 'json schema validated' "$tmp/gl.out"
	ok $? "... the schema validation ran (not switched off)"
	diag "$tmp/gl.out"
	typo "$gl" timeout "$tmp/typo.yml" && ! glci "$tmp/typo.yml" &&
		grep -q "'timeoutx' property is not expected" "$tmp/gl.out"
	ok $? "gitlab-ci-local: a misspelt key (timeoutx) fails, named"
	typo "$gl" resource_group "$tmp/typo2.yml" && ! glci "$tmp/typo2.yml"
	ok $? "gitlab-ci-local: a misspelt resource_group fails too"
else
	skip 4 "gitlab-ci-local not installed: scripts/deps.sh install could not npm install it (no npm registry?)"
fi

tap_done
