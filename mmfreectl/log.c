// SPDX-License-Identifier: GPL-2.0
/*
 * Errors are reported with warnx(3), "mmfreectl: MESSAGE"; a command line
 * mmfreectl cannot act on adds how to get help.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "mmfreectl.h"

/*
 * warnx() prefixes program_invocation_short_name, the name mmfreectl was
 * run by: messages name the tool whatever the path or link it ran as.
 */
void ctl_set_progname(void)
{
	program_invocation_short_name = "mmfreectl";
}

/* An invalid command line: says why, returns RC_USAGE. */
int ctl_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	fputs("Try 'mmfreectl --help'.\n", stderr);
	return RC_USAGE;
}
