// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl status --json: the same facts as the text, for programs.
 * Knobs, features and stats are objects keyed by path; what cannot be
 * read is null (a knob) or left out (a stat); a stat's system pages or
 * bytes that do not fit in a long long are null.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mmfreectl.h"

/*
 * s as a JSON string (RFC 8259), valid UTF-8 whatever s holds: '"' and
 * '\\' escaped, control characters (C0, DEL, C1) as \u00XX, invalid
 * UTF-8 as \ufffd (one for each maximal subpart), the rest as it is.
 */
void ctl_json_string(FILE *f, const char *s)
{
	size_t len;
	long cp;

	fputc('"', f);
	for (; *s; s += len) {
		cp = ctl_utf8_next(s, &len);
		if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (cp < 0)
			fputs("\\ufffd", f);
		else if (ctl_utf8_control(cp))
			fprintf(f, "\\u%04lx", cp);
		else
			fwrite(s, 1, len, f);
	}
	fputc('"', f);
}

/* A string, or null. */
static void json_string_or_null(const char *s)
{
	if (s)
		ctl_json_string(stdout, s);
	else
		fputs("null", stdout);
}

/* A number, or null when it does not fit in a long long. */
static void json_ll_or_null(int fits, long long v)
{
	if (fits)
		printf("%lld", v);
	else
		fputs("null", stdout);
}

/* The unit of a stat's value, and the value in pages or bytes. */
static void json_stat_unit(const struct mmfree_stat_desc *s, long long v,
			   long page_size)
{
	long long units, pages = 0, bytes = 0;
	int fits;

	switch (s->unit) {
	case MMFREE_STAT_PAGES:
		fputs("\"unit\": \"pages_per_unit\"", stdout);
		units = ctl_stat_units(s);
		if (units < 1)
			break;
		fits = ctl_mul_fits(v, units, &pages);
		fputs(", \"system_pages\": ", stdout);
		json_ll_or_null(fits, pages);
		fits = fits && ctl_mul_fits(pages, page_size, &bytes);
		fputs(", \"system_bytes\": ", stdout);
		json_ll_or_null(fits, bytes);
		break;
	case MMFREE_STAT_FREED:
		fits = ctl_mul_fits(v, page_size, &bytes);
		fputs("\"unit\": \"pages\", \"bytes\": ", stdout);
		json_ll_or_null(fits, bytes);
		break;
	case MMFREE_STAT_NSEC:
		fputs("\"unit\": \"ns\"", stdout);
		break;
	case MMFREE_STAT_COUNT:
		fputs("\"unit\": \"count\"", stdout);
		break;
	}
}

/*
 * One knob: only what the module accepts is printed, a number, or for a
 * knob with names the name, as a string.
 */
static void json_knob(const struct mmfree_knob_desc *d)
{
	char val[64];
	unsigned int n;

	ctl_json_string(stdout, d->path);
	if (ctl_sysfs_read(d->path, val, sizeof(val)) ||
	    ctl_knob_parse(d, val, &n)) {
		fputs(": null", stdout);
	} else if (d->names) {
		fputs(": ", stdout);
		ctl_json_string(stdout, d->names[n]);
	} else {
		printf(": %u", n);
	}
}

/*
 * Each member of an object starts on a line of its own after sep, ","
 * but for the first; the closing brace has a line of its own unless the
 * object is empty.
 */
static const char *json_close(const char *sep)
{
	return *sep ? "\n  " : "";
}

static void json_knobs(const struct ctl_status *st)
{
	const char *sep = "";
	size_t i;

	fputs(",\n  \"knobs\": {", stdout);
	for (i = 0; st->loaded && i < MMFREE_NR_KNOBS; i++) {
		printf("%s\n    ", sep);
		json_knob(&mmfree_knob_descs[i]);
		sep = ",";
	}
	printf("%s}", json_close(sep));
}

static void json_features(const struct ctl_status *st)
{
	const char *sep = "";
	char feature[64];
	size_t i;

	fputs(",\n  \"features\": {", stdout);
	for (i = 0; st->loaded && i < MMFREE_NR_KNOBS; i++) {
		if (!ctl_feature_at(i, feature, sizeof(feature)))
			continue;
		printf("%s\n    ", sep);
		ctl_json_string(stdout, feature);
		printf(": { \"available\": %s }",
		       ctl_feature_available(feature) ? "true" : "false");
		sep = ",";
	}
	printf("%s}", json_close(sep));
}

static void json_stats(const struct ctl_status *st)
{
	long page_size = sysconf(_SC_PAGESIZE);
	const char *sep = "";
	char path[256];
	long long v;
	size_t i;

	fputs(",\n  \"stats\": {", stdout);
	for (i = 0; st->loaded && i < MMFREE_NR_STATS; i++) {
		const struct mmfree_stat_desc *s = &mmfree_stat_descs[i];

		snprintf(path, sizeof(path), "%s/%s", s->dir, s->name);
		if (ctl_sysfs_read_ll(path, &v))
			continue;
		printf("%s\n    ", sep);
		ctl_json_string(stdout, path);
		printf(": { \"value\": %lld, ", v);
		json_stat_unit(s, v, page_size);
		fputs(" }", stdout);
		sep = ",";
	}
	printf("%s}", json_close(sep));
}

void ctl_status_json(const struct ctl_status *st)
{
	printf("{\n  \"loaded\": %s,\n  \"version\": ",
	       st->loaded ? "true" : "false");
	json_string_or_null(st->loaded ? st->version : NULL);
	fputs(",\n  \"kernel\": ", stdout);
	ctl_json_string(stdout, st->kernel);
	fputs(",\n  \"module\": ", stdout);
	json_string_or_null(st->path);
	json_knobs(st);
	json_features(st);
	json_stats(st);
	fputs("\n}\n", stdout);
}
