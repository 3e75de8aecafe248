// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl: load, unload, inspect and configure the mmfree module.
 *
 * Every KEY and VALUE is checked against the limits of the knob table
 * shared with the module (or, for a knob with names, its names) before
 * anything is written or loaded, so that a usage error (exit status 2)
 * changes nothing; load checks the options of /etc/modprobe.d the same
 * way.  The module is loaded and removed with libkmod, as modprobe does.
 *
 * This file holds the command table and the dispatch; each command has
 * a file of its own, cmd_*.c.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mmfreectl.h"

#ifndef MMFREE_VERSION
#define MMFREE_VERSION "unknown"
#endif

struct mmfreectl_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;	/* its arguments, as --help shows them */
	const char *help;	/* what it does, in --help */
	bool reads_only;	/* runs while MMFREECTL_SYSFS is set */
};

static const struct mmfreectl_cmd commands[] = {
	{ "load", ctl_cmd_load, "[KEY=VALUE ...]",
	  "load mmfree (with /etc/modprobe.d options)", false },
	{ "unload", ctl_cmd_unload, "", "remove mmfree", false },
	{ "status", ctl_cmd_status, "[--json|--prometheus]",
	  "module, version, kernel, knobs, stats", true },
	{ "get", ctl_cmd_get, "KEY", "print a knob or statistic", true },
	{ "set", ctl_cmd_set, "KEY VALUE", "change a knob", false },
	{ "enable", ctl_cmd_enable, "[FEATURE]",
	  "set enabled (or FEATURE/enabled) to 1", false },
	{ "disable", ctl_cmd_disable, "[FEATURE]",
	  "set enabled (or FEATURE/enabled) to 0", false },
	{ "percpu", ctl_cmd_percpu, "reclaim",
	  "depopulate empty percpu pages now", false },
	{ "wait", ctl_cmd_wait, "[--timeout SECONDS]",
	  "wait until no page is in flight", true },
};

static void usage(FILE *f)
{
	char synopsis[64];
	size_t i;

	fputs("Usage: mmfreectl COMMAND [ARGS]\n\nCommands:\n", f);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		const struct mmfreectl_cmd *c = &commands[i];

		snprintf(synopsis, sizeof(synopsis), "%s%s%s", c->name,
			 *c->usage ? " " : "", c->usage);
		fprintf(f, "  %-22s %s\n", synopsis, c->help);
	}
	fputs("\n"
	      "Options: -h, --help; --version\n"
	      "\n"
	      "KEY is a knob path (percpu/min_empty_pages) or its module\n"
	      "parameter name (percpu_min_empty_pages); VALUE is a decimal\n"
	      "integer within the knob's range or, for a knob with names\n"
	      "(pagefree/mode), one of its names (see mmfreectl status).\n"
	      "\n"
	      "SECONDS is a decimal number of seconds from 0 to "
	      CTL_XSTR(WAIT_MAX_SECONDS) " (0.5);\n"
	      "wait without --timeout waits as long as pages are in flight.\n"
	      "\n"
	      "Exit status: 0 ok; 1 operation failed; 2 invalid command, key\n"
	      "or value (nothing changed); 3 module not loaded or feature\n"
	      "unavailable; 4 wait timed out with pages still in flight.\n"
	      "\n"
	      "Environment: MMFREECTL_SYSFS=DIR reads the module's files from\n"
	      "DIR/kernel/mmfree instead of /sys/kernel/mmfree (for tests);\n"
	      "while it is set, only status, get and wait run.\n", f);
}

int main(int argc, char **argv)
{
	size_t i;

	ctl_set_progname();
	if (argc < 2)
		return ctl_usage_error("no command given");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return RC_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("mmfreectl %s\n", MMFREE_VERSION);
		return RC_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		const struct mmfreectl_cmd *c = &commands[i];

		if (strcmp(argv[1], c->name))
			continue;
		/* A fake sysfs is for reading: nothing is written through it. */
		if (!c->reads_only && ctl_sysfs_root())
			return ctl_usage_error("%s: refused while %s is set",
					       c->name, "MMFREECTL_SYSFS");
		return c->fn(argc - 2, argv + 2);
	}
	if (argv[1][0] == '-')
		return ctl_usage_error("unknown option '%s'", argv[1]);
	return ctl_usage_error("unknown command '%s'", argv[1]);
}
