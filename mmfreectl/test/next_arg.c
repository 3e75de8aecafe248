// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's module option lexer, to hold ctl_opt_next() to: next_arg()
 * from lib/cmdline.c and skip_spaces() from lib/string_helpers.c of Linux
 * 6.12, copied unchanged but for their names and the kernel's isspace(),
 * whose table (lib/ctype.c) is not the C library's: it has no locale, and
 * counts 0xa0 (Latin-1 no-break space) as a space.
 *
 * lib/cmdline.c: "Code and copyrights come from init/main.c and
 * arch/i386/kernel/setup.c."
 */
#include "test.h"

static int kernel_isspace(char c)
{
	switch ((unsigned char)c) {
	case '\t': case '\n': case '\v': case '\f': case '\r': case ' ':
	case 0xa0:
		return 1;
	}
	return 0;
}

#define isspace(c) kernel_isspace(c)

char *kernel_skip_spaces(const char *str)
{
	while (isspace(*str))
		++str;
	return (char *)str;
}

/*
 * Parse a string to get a param value pair.
 * You can use " around spaces, but can't escape ".
 * Hyphens and underscores equivalent in parameter names.
 */
char *kernel_next_arg(char *args, char **param, char **val)
{
	unsigned int i, equals = 0;
	int in_quote = 0, quoted = 0;

	if (*args == '"') {
		args++;
		in_quote = 1;
		quoted = 1;
	}

	for (i = 0; args[i]; i++) {
		if (isspace(args[i]) && !in_quote)
			break;
		if (equals == 0) {
			if (args[i] == '=')
				equals = i;
		}
		if (args[i] == '"')
			in_quote = !in_quote;
	}

	*param = args;
	if (!equals)
		*val = NULL;
	else {
		args[equals] = '\0';
		*val = args + equals + 1;

		/* Don't include quotes in value. */
		if (**val == '"') {
			(*val)++;
			if (args[i-1] == '"')
				args[i-1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i-1] == '"')
		args[i-1] = '\0';

	if (args[i]) {
		args[i] = '\0';
		args += i + 1;
	} else
		args += i;

	/* Chew up trailing spaces. */
	return kernel_skip_spaces(args);
}
