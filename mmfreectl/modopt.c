// SPDX-License-Identifier: GPL-2.0
/*
 * Module options: those mmfreectl load is given, checked as set checks a
 * value and joined as the kernel takes them, and those /etc/modprobe.d
 * gives, split as the kernel splits them and checked before loading.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmfreectl.h"

/*
 * The load-time parameters that are no knob (untested_kernel), described
 * as knobs are, the name standing for the path.
 */
#define LOAD_PARAM_DESC(n, d, lo, hi, h) \
	{ .path = #n, .def = d, .min = lo, .max = hi, .help = h },
static const struct mmfree_knob_desc load_params[] = {
	MMFREE_LOAD_PARAMS(LOAD_PARAM_DESC)
};

#define NR_LOAD_OPTS (MMFREE_NR_KNOBS + ARRAY_SIZE(load_params))

/* A knob by path or parameter name, or a load-time parameter. */
static const struct mmfree_knob_desc *load_find(const char *key,
						size_t *index)
{
	const struct mmfree_knob_desc *d = ctl_knob_find(key);
	size_t i;

	if (d) {
		*index = d - mmfree_knob_descs;
		return d;
	}
	for (i = 0; i < ARRAY_SIZE(load_params); i++) {
		if (!strcmp(key, load_params[i].path)) {
			*index = MMFREE_NR_KNOBS + i;
			return &load_params[i];
		}
	}
	return NULL;
}

/* One KEY=VALUE argument of load, appended to opts at *len. */
static int load_opt(const char *arg, int *given, char *opts, size_t size,
		    size_t *len)
{
	const struct mmfree_knob_desc *d;
	const char *eq = strchr(arg, '=');
	char key[128], param[128], num[16];
	unsigned int val;
	size_t index;

	if (!eq || eq == arg)
		return ctl_usage_error("load: expected KEY=VALUE, got '%s'", arg);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - arg), arg);
	d = load_find(key, &index);
	if (!d) {
		size_t i;
		int ret = ctl_unknown_knob(key);

		fputs("parameters:", stderr);
		for (i = 0; i < ARRAY_SIZE(load_params); i++)
			fprintf(stderr, " %s", load_params[i].path);
		fputc('\n', stderr);
		return ret;
	}
	if (ctl_knob_parse(d, eq + 1, &val))
		return ctl_bad_value(d, eq + 1);
	if (given[index]++)
		return ctl_usage_error("load: %s given twice", d->path);
	if (index < MMFREE_NR_KNOBS)
		ctl_knob_param(d, param, sizeof(param));
	else
		snprintf(param, sizeof(param), "%s", d->path);
	*len += snprintf(opts + *len, size - *len, "%s%s=%s",
			 *len ? " " : "", param,
			 ctl_knob_format(d, val, num, sizeof(num)));
	if (*len >= size)
		return ctl_usage_error("load: too many options");
	return RC_OK;
}

/*
 * The KEY=VALUE arguments of load as module options, "param=value ...",
 * each checked as set checks it: RC_OK, or RC_USAGE after saying why.
 */
int ctl_load_opts(int argc, char **argv, char *opts, size_t size)
{
	int given[NR_LOAD_OPTS] = { 0 };
	size_t len = 0;
	int i, ret;

	opts[0] = '\0';
	for (i = 0; i < argc; i++) {
		ret = load_opt(argv[i], given, opts, size, &len);
		if (ret)
			return ret;
	}
	return RC_OK;
}

/*
 * The kernel's isspace() (lib/ctype.c): no locale, and 0xa0 (Latin-1
 * no-break space) is a space; "\r" too, so a CRLF line of
 * /etc/modprobe.d splits as the kernel splits it.
 */
static int opt_blank(char c)
{
	return c && (strchr(" \t\n\v\f\r", c) || (unsigned char)c == 0xa0);
}

char *ctl_opt_skip_blanks(char *s)
{
	while (opt_blank(*s))
		s++;
	return s;
}

/*
 * Split off the first "param[=value]" of a module option string as the
 * kernel does (next_arg() in lib/cmdline.c): blanks separate, double
 * quotes group, and quotes around the value or the whole option are
 * dropped.  *val is NULL without '='.  Returns the rest.
 */
char *ctl_opt_next(char *args, char **param, char **val)
{
	size_t i, equals = 0;
	int in_quote = 0, quoted = 0;

	if (*args == '"') {
		args++;
		in_quote = 1;
		quoted = 1;
	}
	for (i = 0; args[i]; i++) {
		if (opt_blank(args[i]) && !in_quote)
			break;
		if (!equals && args[i] == '=')
			equals = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}
	*param = args;
	*val = NULL;
	if (equals) {
		args[equals] = '\0';
		*val = args + equals + 1;
		if (**val == '"') {
			(*val)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i - 1] == '"')
		args[i - 1] = '\0';
	if (args[i])
		args[i++] = '\0';
	return ctl_opt_skip_blanks(args + i);
}

/*
 * The options /etc/modprobe.d (or mmfree.KEY=VALUE on the kernel command
 * line) gives mmfree, checked before loading: the kernel stops at the
 * first value it refuses, even one a later option would override, and
 * says so only in dmesg.  Options that are not knobs (test_*, or unknown
 * ones the kernel ignores) are the kernel's to judge.  Returns how many
 * are bad, each said.
 */
int ctl_conf_check(const char *conf)
{
	const struct mmfree_knob_desc *d;
	char *args, *rest, *param, *val;
	unsigned int v;
	int bad = 0;

	args = strdup(conf);
	if (!args)
		return 0;	/* then the kernel checks them */
	for (rest = ctl_opt_skip_blanks(args); *rest; ) {
		rest = ctl_opt_next(rest, &param, &val);
		/* parse_args(): the kernel ignores what follows "--". */
		if (!val && !strcmp(param, "--"))
			break;
		d = ctl_knob_find_param(param);
		if (d && (!val || ctl_knob_parse(d, val, &v))) {
			ctl_bad_value_msg(d, param, val ?: "",
					  " in /etc/modprobe.d");
			bad++;
		}
	}
	free(args);
	return bad;
}
