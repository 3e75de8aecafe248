// SPDX-License-Identifier: GPL-2.0
/*
 * The knobs: found by path or module parameter, values parsed, formatted
 * and refused as the module does, so that a usage error (exit status 2)
 * changes nothing.
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "mmfreectl.h"

/* The module parameter of a knob: its path with '/' replaced by '_'. */
void ctl_knob_param(const struct mmfree_knob_desc *d, char *buf, size_t size)
{
	char *p;

	snprintf(buf, size, "%s", d->path);
	for (p = buf; *p; p++)
		if (*p == '/')
			*p = '_';
}

/* A knob by its path (percpu/enabled) or its parameter (percpu_enabled). */
const struct mmfree_knob_desc *ctl_knob_find(const char *key)
{
	char param[128];
	size_t i;

	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];

		ctl_knob_param(d, param, sizeof(param));
		if (!strcmp(key, d->path) || !strcmp(key, param))
			return d;
	}
	return NULL;
}

/*
 * The knob a module option names, matched as the kernel matches
 * parameters (parameq(): '-' and '_' are the same), paths excluded: the
 * kernel would ignore "percpu/enabled=1" as an unknown parameter.
 */
const struct mmfree_knob_desc *ctl_knob_find_param(const char *name)
{
	char key[128], *p;

	if (strchr(name, '/') ||
	    snprintf(key, sizeof(key), "%s", name) >= (int)sizeof(key))
		return NULL;
	for (p = key; *p; p++)
		if (*p == '-')
			*p = '_';
	return ctl_knob_find(key);
}

void ctl_knob_list(FILE *f)
{
	size_t i;

	fputs("knobs:", f);
	for (i = 0; i < MMFREE_NR_KNOBS; i++)
		fprintf(f, " %s", mmfree_knob_descs[i].path);
	fputc('\n', f);
}

int ctl_unknown_knob(const char *key)
{
	warnx("unknown knob '%s'", key);
	ctl_knob_list(stderr);
	return RC_USAGE;
}

/*
 * What the module accepts: decimal digits only (no sign, space or
 * newline), within [min, max].
 */
static int knob_parse_number(const struct mmfree_knob_desc *d, const char *s,
			     unsigned int *val)
{
	unsigned long long v = 0;
	const char *p;

	if (!*s)
		return -1;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
		/* max < 2^32: stopping here also rules out overflow. */
		if (v > d->max)
			return -1;
	}
	if (v < d->min && !(v == 0 && d->off))
		return -1;
	*val = v;
	return 0;
}

/*
 * A knob with names takes one of them, spelt exactly, and never its
 * index: "1" is as invalid for pagefree/mode as for the module.  The
 * trailing newline sysfs also accepts is left out, as for numbers.
 */
static int knob_parse_name(const struct mmfree_knob_desc *d, const char *s,
			   unsigned int *val)
{
	unsigned int i;

	for (i = d->min; i <= d->max; i++) {
		if (!strcmp(s, d->names[i])) {
			*val = i;
			return 0;
		}
	}
	return -1;
}

/* A value of the knob d: 0 and *val set, or -1. */
int ctl_knob_parse(const struct mmfree_knob_desc *d, const char *s,
		   unsigned int *val)
{
	if (d->names)
		return knob_parse_name(d, s, val);
	return knob_parse_number(d, s, val);
}

/* A value as sysfs and the module parameter take it: a name or a number. */
const char *ctl_knob_format(const struct mmfree_knob_desc *d,
			    unsigned int val, char *buf, size_t size)
{
	if (d->names && val <= d->max)
		return d->names[val];
	snprintf(buf, size, "%u", val);
	return buf;
}

/* The names of a knob from min to max, each after the first after sep. */
static void knob_names(const struct mmfree_knob_desc *d, const char *sep,
		       char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = d->min; i <= d->max && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s",
				i > d->min ? sep : "", d->names[i]);
}

/* The values a knob takes: "0-1", or its names, "sync|async". */
const char *ctl_knob_range(const struct mmfree_knob_desc *d, char *buf,
			   size_t size)
{
	if (d->names)
		knob_names(d, "|", buf, size);
	else if (d->off)
		snprintf(buf, size, "0|%u-%u", d->min, d->max);
	else
		snprintf(buf, size, "%u-%u", d->min, d->max);
	return buf;
}

/*
 * Why s is not a value of the knob d, called name where it was given
 * (the path, or the parameter as spelt), from where ("" or " in ...").
 */
void ctl_bad_value_msg(const struct mmfree_knob_desc *d, const char *name,
		       const char *s, const char *where)
{
	char names[256];

	if (!d->names) {
		warnx("invalid value '%s' for %s%s: expected %san integer from %u to %u",
		      s, name, where, d->off ? "0 (off) or " : "", d->min,
		      d->max);
		return;
	}
	knob_names(d, ", ", names, sizeof(names));
	warnx("invalid value '%s' for %s%s: expected one of: %s", s, name,
	      where, names);
}

int ctl_bad_value(const struct mmfree_knob_desc *d, const char *s)
{
	ctl_bad_value_msg(d, d->path, s, "");
	return RC_USAGE;
}
