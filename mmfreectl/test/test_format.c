// SPDX-License-Identifier: GPL-2.0
/*
 * What status prints for people and programs: JSON strings escaped as
 * RFC 8259 requires, and sizes and durations in readable units.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "mmfreectl.h"
#include "test.h"

struct str_case {
	const char *name;
	const char *in;
	const char *want;
};

static const struct str_case json_cases[] = {
	{ "empty", "", "\"\"" },
	{ "plain", "percpu/stats/scans", "\"percpu/stats/scans\"" },
	{ "quote", "a\"b", "\"a\\\"b\"" },
	{ "backslash", "a\\b\\", "\"a\\\\b\\\\\"" },
	{ "newline, tab, CR", "\n\t\r", "\"\\u000a\\u0009\\u000d\"" },
	{ "control characters", "\x01x\x1f", "\"\\u0001x\\u001f\"" },
	{ "space as it is", " ", "\" \"" },
	/* DEL and C1 are control characters too: escaped, never raw. */
	{ "DEL", "\x7f", "\"\\u007f\"" },
	{ "C1 controls", "\xc2\x80x\xc2\x9b\xc2\x9f", "\"\\u0080x\\u009b\\u009f\"" },
	{ "no-break space as it is", "\xc2\xa0", "\"\xc2\xa0\"" },
	{ "UTF-8 as it is", "6.12-\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
	  "\"6.12-\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"" },
	{ "quote after UTF-8", "\xc3\xa9\"", "\"\xc3\xa9\\\"\"" },
	{ "U+10FFFF as it is", "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },
	{ "U+E000 as it is", "\xee\x80\x80", "\"\xee\x80\x80\"" },
	/*
	 * Invalid UTF-8: one U+FFFD for each maximal subpart (the longest
	 * start of a valid sequence, or else one byte), as Unicode advises.
	 */
	{ "0xff", "\xff", "\"\\ufffd\"" },
	{ "0xff between", "a\377\377b", "\"a\\ufffd\\ufffdb\"" },
	{ "0xfe, 0xf5", "\xfe\xf5", "\"\\ufffd\\ufffd\"" },
	{ "lone continuation", "\x80\xbf", "\"\\ufffd\\ufffd\"" },
	{ "truncated 2 bytes at the end", "x\xc3", "\"x\\ufffd\"" },
	{ "truncated 2 bytes", "\xc3x", "\"\\ufffdx\"" },
	{ "truncated 3 bytes", "\xe2\x82x", "\"\\ufffdx\"" },
	{ "truncated 3 bytes at the end", "\xe2\x82", "\"\\ufffd\"" },
	{ "truncated 4 bytes", "\xf0\x9f\x98\"", "\"\\ufffd\\\"\"" },
	{ "truncated before a quote", "\xc3\"", "\"\\ufffd\\\"\"" },
	{ "truncated before a control", "\xe2\x01", "\"\\ufffd\\u0001\"" },
	{ "overlong 2 bytes", "\xc0\xaf\xc1\xbf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "overlong 3 bytes", "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "overlong 4 bytes", "\xf0\x8f\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "surrogate", "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "above U+10FFFF", "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "Latin-1", "caf\xe9", "\"caf\\ufffd\"" },
};

void test_json(void)
{
	char *buf;
	size_t i, len;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(json_cases); i++) {
		const struct str_case *c = &json_cases[i];

		f = open_memstream(&buf, &len);
		if (!f) {
			ktap_result(false, "json_string %s: open_memstream",
				    c->name);
			continue;
		}
		ctl_json_string(f, c->in);
		fclose(f);
		ktap_streq(buf, c->want, "json_string %s", c->name);
		free(buf);
	}
}

struct num_case {
	unsigned long long in;
	const char *want;
};

static const struct num_case bytes_cases[] = {
	{ 0, "0 B" },
	{ 1023, "1023 B" },
	{ 1024, "1.0 KiB" },
	{ 1536, "1.5 KiB" },
	{ 4096ULL * 262144, "1.0 GiB" },
	{ ~0ULL, "16.0 EiB" },
};

static const struct num_case nsec_cases[] = {
	{ 0, "0 ns" },
	{ 999, "999 ns" },
	{ 1000, "1.00 us" },
	{ 1234567, "1.23 ms" },
	/* 999.999 us would round to 1000.00 us: the next unit. */
	{ 999999, "1.00 ms" },
	{ 123456789012ULL, "123.46 s" },
	{ 5000000000000ULL, "5000.00 s" },
};

void test_format(void)
{
	char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bytes_cases); i++) {
		ctl_human_bytes(bytes_cases[i].in, buf, sizeof(buf));
		ktap_streq(buf, bytes_cases[i].want, "human_bytes %llu",
			   bytes_cases[i].in);
	}
	for (i = 0; i < ARRAY_SIZE(nsec_cases); i++) {
		ctl_human_nsec(nsec_cases[i].in, buf, sizeof(buf));
		ktap_streq(buf, nsec_cases[i].want, "human_nsec %llu",
			   nsec_cases[i].in);
	}
}
