// SPDX-License-Identifier: GPL-2.0
/*
 * What status prints (text, JSON, Prometheus) and percpu reclaim says,
 * from a fake sysfs whose statistics hold anything a file can: values
 * at the limits of a 64-bit integer, whose conversions to system pages
 * and bytes must not overflow (undefined behaviour, then a wrapped,
 * wrong number): a value that does not fit is null in JSON, left out of
 * Prometheus's output, "out of range" in the text.  Nanoseconds as
 * Prometheus's seconds, negative ones too.  Strings, whatever bytes
 * they hold, as valid UTF-8 without control characters.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mmfreectl.h"
#include "test.h"

#define POPULATED "percpu/stats/populated_pages"
#define UNITS "percpu/stats/units"
#define OFFLOADED "pagefree/stats/offloaded_pages"

static char out[32768];
static long page;

/* What show prints for a loaded module of version on kernel, in out. */
static void show_strings(void (*show)(const struct ctl_status *st),
			 const char *version, const char *kernel, char *path)
{
	struct ctl_status st = { .loaded = 1, .kernel = kernel, .path = path };

	snprintf(st.version, sizeof(st.version), "%s", version);
	capture_stdout_begin();
	show(&st);
	capture_stdout_end(out, sizeof(out));
}

static void show_capture(void (*show)(const struct ctl_status *st))
{
	show_strings(show, "0.1.0", "6.12.0", NULL);
}

/*
 * The rest of the line of out that starts with key (after blanks), its
 * blanks and a trailing comma left out; NULL if there is none.
 */
static const char *line_after(const char *key, char *buf, size_t size)
{
	const char *p = out, *eol;
	size_t len;

	for (; *p; p = *eol ? eol + 1 : eol) {
		eol = strchrnul(p, '\n');
		p += strspn(p, " ");
		if (strncmp(p, key, strlen(key)))
			continue;
		p += strlen(key);
		p += strspn(p, " ");
		len = eol - p;
		if (len && p[len - 1] == ',')
			len--;
		snprintf(buf, size, "%.*s", (int)len, p);
		return buf;
	}
	return NULL;
}

static void expect_line(const char *key, const char *want, const char *what,
			const char *val)
{
	char buf[512];

	ktap_streq(line_after(key, buf, sizeof(buf)), want, "%s, %s %s", what,
		   key, val);
}

/*
 * percpu/stats/populated_pages = val with units: its system pages and
 * bytes in JSON ("null" for either: does not fit), bytes in Prometheus
 * (NULL: left out), and pages and human bytes in the text.
 */
static void expect_pages(const char *val, const char *units, const char *pages,
			 const char *bytes, const char *text)
{
	char json[256];

	fake_sysfs_file(POPULATED, val);
	fake_sysfs_file(UNITS, units);
	snprintf(json, sizeof(json),
		 "{ \"value\": %s, \"unit\": \"pages_per_unit\", \"system_pages\": %s, \"system_bytes\": %s }",
		 val, pages, bytes);
	show_capture(ctl_status_json);
	expect_line("\"" POPULATED "\":", json, "json", val);
	show_capture(ctl_status_prometheus);
	expect_line("mmfree_percpu_populated_bytes",
		    strcmp(bytes, "null") ? bytes : NULL, "prometheus", val);
	if (!strcmp(bytes, "null"))
		expect_line("# HELP mmfree_percpu_populated_bytes", NULL,
			    "prometheus HELP", val);
	show_capture(ctl_status_text);
	snprintf(json, sizeof(json), "%s  %s", val, text);
	expect_line("populated_pages", json, "text", val);
}

/* pagefree/stats/offloaded_pages = val: in bytes, as expect_pages(). */
static void expect_freed(const char *val, const char *bytes, const char *text)
{
	char json[256];

	fake_sysfs_file(OFFLOADED, val);
	snprintf(json, sizeof(json),
		 "{ \"value\": %s, \"unit\": \"pages\", \"bytes\": %s }",
		 val, bytes);
	show_capture(ctl_status_json);
	expect_line("\"" OFFLOADED "\":", json, "json", val);
	show_capture(ctl_status_prometheus);
	expect_line("mmfree_pagefree_offloaded_bytes_total",
		    strcmp(bytes, "null") ? bytes : NULL, "prometheus", val);
	show_capture(ctl_status_text);
	snprintf(json, sizeof(json), "%s  %s", val, text);
	expect_line("offloaded_pages", json, "text", val);
}

/* "%lld" of v, in a buffer of its own among four. */
static const char *num(long long v)
{
	static char bufs[4][32];
	static int i;

	i = (i + 1) % 4;
	snprintf(bufs[i], sizeof(bufs[i]), "%lld", v);
	return bufs[i];
}

/* "-8.0 KiB", "(8.0 KiB)": the text's human bytes of v. */
static const char *human(long long v, const char *fmt)
{
	static char buf[64];
	char h[32];

	ctl_human_bytes(v < 0 ? 0ULL - (unsigned long long)v :
			(unsigned long long)v, h,
			sizeof(h));
	snprintf(buf, sizeof(buf), fmt, v < 0 ? "-" : "", h);
	return buf;
}

static void test_overflow_pages(void)
{
	long long fit = INT64_MAX / (2 * page) * 2 * page;
	char text[128];

	expect_pages("0", "2", "0", "0", "0 pages, 0 B");
	snprintf(text, sizeof(text), "-2 pages, %s", human(-2 * page, "%s%s"));
	expect_pages("-1", "2", "-2", num(-2 * page), text);
	snprintf(text, sizeof(text), "2 pages, %s", human(2 * page, "%s%s"));
	expect_pages("1", "2", "2", num(2 * page), text);
	/* The largest that fits in bytes, and one more. */
	snprintf(text, sizeof(text), "%lld pages, %s", fit / page,
		 human(fit, "%s%s"));
	expect_pages(num(fit / page / 2), "2", num(fit / page), num(fit), text);
	snprintf(text, sizeof(text), "%lld pages, bytes out of range",
		 fit / page + 2);
	expect_pages(num(fit / page / 2 + 1), "2", num(fit / page + 2), "null",
		     text);
	snprintf(text, sizeof(text), "%lld pages, %s", -fit / page,
		 human(-fit, "%s%s"));
	expect_pages(num(-fit / page / 2), "2", num(-fit / page), num(-fit),
		     text);
	/* Pages that fit, bytes that do not. */
	expect_pages("4611686018427387903", "2", "9223372036854775806", "null",
		     "9223372036854775806 pages, bytes out of range");
	expect_pages("-9223372036854775808", "1", "-9223372036854775808",
		     "null", "-9223372036854775808 pages, bytes out of range");
	expect_pages("-1", "9223372036854775807", "-9223372036854775807",
		     "null", "-9223372036854775807 pages, bytes out of range");
	/* Neither fits. */
	expect_pages("9223372036854775807", "2", "null", "null",
		     "out of range");
	expect_pages("-9223372036854775808", "2", "null", "null",
		     "out of range");
	expect_pages("9223372036854775807", "9223372036854775807", "null",
		     "null", "out of range");
	expect_pages("4611686018427387904", "2", "null", "null",
		     "out of range");
}

static void test_overflow_freed(void)
{
	long long fit = INT64_MAX / page, neg = INT64_MIN / page;

	expect_freed("0", "0", "(0 B)");
	expect_freed("-1", num(-page), human(-page, "(%s%s)"));
	expect_freed("1", num(page), human(page, "(%s%s)"));
	expect_freed(num(fit), num(fit * page), human(fit * page, "(%s%s)"));
	expect_freed(num(neg), num(neg * page), human(neg * page, "(%s%s)"));
	expect_freed(num(fit + 1), "null", "(out of range)");
	expect_freed(num(neg - 1), "null", "(out of range)");
	expect_freed("9223372036854775807", "null", "(out of range)");
	expect_freed("-9223372036854775808", "null", "(out of range)");
}

static void expect_released(long long before, long long after,
			    long long units, const char *want)
{
	char line[256];

	capture_stdout_begin();
	ctl_percpu_released(before, after, units, page);
	capture_stdout_end(out, sizeof(out));
	snprintf(line, sizeof(line),
		 "percpu: populated_pages %lld -> %lld per unit (%s)\n",
		 before, after, want);
	ktap_streq(out, line, "percpu released %lld -> %lld x %lld", before,
		   after, units);
}

static void test_overflow_released(void)
{
	char want[128];

	snprintf(want, sizeof(want), "%s released system wide",
		 human(4 * page, "%s%s"));
	expect_released(3, 1, 2, want);
	expect_released(1, 3, 2, "0 B released system wide");
	expect_released(0, 0, 1, "0 B released system wide");
	expect_released(INT64_MAX, -1, 1, "released system wide: out of range");
	expect_released(INT64_MAX, INT64_MIN, 1,
			"released system wide: out of range");
	expect_released(INT64_MAX, 0, 2, "released system wide: out of range");
	expect_released(INT64_MAX, INT64_MAX - 1, INT64_MAX,
			"released system wide: out of range");
	snprintf(want, sizeof(want), "%s released system wide",
		 human(INT64_MAX / page * page, "%s%s"));
	expect_released(INT64_MAX / page, 0, 1, want);
	expect_released(INT64_MAX / page + 1, 0, 1,
			"released system wide: out of range");
}

/*
 * Nanoseconds as Prometheus's seconds: a float Go's ParseFloat takes,
 * the sign once, in front.
 */
static void test_prom_seconds(void)
{
	static const struct {
		const char *ns, *seconds;
	} cases[] = {
		{ "0", "0.000000000" },
		{ "1", "0.000000001" },
		{ "999999999", "0.999999999" },
		{ "1000000000", "1.000000000" },
		{ "1500000000", "1.500000000" },
		{ "-1", "-0.000000001" },
		{ "-500000000", "-0.500000000" },
		{ "-1000000000", "-1.000000000" },
		{ "-1500000000", "-1.500000000" },
		{ "9223372036854775807", "9223372036.854775807" },
		{ "-9223372036854775807", "-9223372036.854775807" },
		{ "-9223372036854775808", "-9223372036.854775808" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		fake_sysfs_file("pagefree/stats/wait_ns", cases[i].ns);
		show_capture(ctl_status_prometheus);
		expect_line("mmfree_pagefree_wait_seconds_total",
			    cases[i].seconds, "prometheus", cases[i].ns);
	}
}

/*
 * The version (from sysfs), the kernel release and the module's path as
 * JSON strings and Prometheus label values: valid UTF-8 whatever they
 * hold, with no control character.  Prometheus escapes only backslash,
 * double quote and newline: U+FFFD stands for anything else.
 */
static void test_strings(void)
{
	static const struct {
		const char *in, *json, *prom;
	} cases[] = {
		{ "6.12.0", "\"6.12.0\"", "\"6.12.0\"" },
		{ "6.12-\xc3\xa9", "\"6.12-\xc3\xa9\"", "\"6.12-\xc3\xa9\"" },
		{ "0.1\xff", "\"0.1\\ufffd\"", "\"0.1\xef\xbf\xbd\"" },
		{ "6.12-\xc3", "\"6.12-\\ufffd\"", "\"6.12-\xef\xbf\xbd\"" },
		{ "\xe2\x82\xff\x80", "\"\\ufffd\\ufffd\\ufffd\"",
		  "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "a\tb\rc\x1b[0m\x7f", "\"a\\u0009b\\u000dc\\u001b[0m\\u007f\"",
		  "\"a\xef\xbf\275b\xef\xbf\275c\xef\xbf\xbd[0m\xef\xbf\xbd\"" },
		{ "\xc2\x85x", "\"\\u0085x\"", "\"\xef\xbf\xbdx\"" },
		{ "x\ny\"z\\", "\"x\\u000ay\\\"z\\\\\"", "\"x\\ny\\\"z\\\\\"" },
	};
	char want[256], path[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(path, sizeof(path), "%s", cases[i].in);
		show_strings(ctl_status_json, cases[i].in, cases[i].in, path);
		expect_line("\"version\":", cases[i].json, "json version",
			    cases[i].json);
		expect_line("\"kernel\":", cases[i].json, "json kernel",
			    cases[i].json);
		expect_line("\"module\":", cases[i].json, "json module",
			    cases[i].json);
		show_strings(ctl_status_prometheus, cases[i].in, cases[i].in,
			     NULL);
		snprintf(want, sizeof(want), "version=%s,kernel=%s} 1",
			 cases[i].prom, cases[i].prom);
		expect_line("mmfree_info{", want, "prometheus labels",
			    cases[i].json);
	}
}

void test_output(void)
{
	page = sysconf(_SC_PAGESIZE);
	fake_sysfs_begin();
	fake_sysfs_file("version", "0.1.0\n");
	test_overflow_pages();
	test_overflow_freed();
	test_overflow_released();
	test_prom_seconds();
	test_strings();
	fake_sysfs_end();
}
