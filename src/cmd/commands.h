/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Subcommands of the `nsbench` CLI: one line each,
 * NSB_CMD(name, "one-line summary"), implemented as
 * int cmd_<name>(int argc, char **argv) in src/cmd/<name>.c: its options,
 * usage and output; what it computes is library code in src/lib/.
 * argv[0] is the subcommand's name.  Exit codes: 0 ok, 1 the answer is
 * "no" (e.g. a regression), 2 usage or input error.
 */
NSB_CMD(context, "this machine's provenance context as JSON")
NSB_CMD(compare, "compare results: BASE... -- PATCHED... (tests, CIs)")
NSB_CMD(summary, "one run's results as a table per benchmark family")
NSB_CMD(report, "posting-ready report (72-col text or Markdown)")
NSB_CMD(costs, "what each userns mount check costs (one toggles kernel)")
NSB_CMD(plot, "A/B, depth, distribution or trend plots (gnuplot)")
NSB_CMD(import_hyperfine, "hyperfine --export-json output as nsbench results")
NSB_CMD(history, "CI history: append, accept, show, changes, trends, publish")
NSB_CMD(gate, "CI gate: a run against its baseline (text, KTAP, JUnit)")
NSB_CMD(profile, "where the instructions go: per-symbol shift (perf)")
NSB_CMD(profile_import, "one boot's perf profile (perf report table) as JSON")
NSB_CMD(stamp, "the host's values into a guest's results files, in place")
NSB_CMD(manifest, "a kernel A/B run's manifest.json: written, or shards merged")
NSB_CMD(bisect, "the commit that made an operation slower (icount A/Bs)")
