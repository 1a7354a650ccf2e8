/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Subcommands of the `nsbench` CLI: one line each,
 * NSB_CMD(name, "one-line summary"), implemented as
 * int cmd_<name>(int argc, char **argv) in src/<name>.c.
 * argv[0] is the subcommand's name.  Exit codes: 0 ok, 1 the answer is
 * "no" (e.g. a regression), 2 usage or input error.
 */
NSB_CMD(context, "print the provenance context of this machine as JSON")
NSB_CMD(compare, "compare results: BASE... -- PATCHED... (tests, CIs, verdicts)")
NSB_CMD(summary, "one run's results as a table per benchmark family")
NSB_CMD(report, "posting-ready report (72-col text or Markdown) of a comparison")
NSB_CMD(plot, "render comparison plots (A/B, depth, distribution) or a trend")
NSB_CMD(import_hyperfine, "convert hyperfine --export-json output into nsbench results JSON")
NSB_CMD(history, "CI history: append runs, accept a baseline, show, change points, trend plots")
NSB_CMD(gate, "CI gate: newest run against the accepted baseline (text, KTAP, JUnit)")
