// SPDX-License-Identifier: GPL-2.0
/*
 * What status prints for people and programs: JSON strings escaped as
 * RFC 8259 requires, and sizes and durations in readable units; and
 * durations as wait --timeout reads them.
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

/*
 * One decimal, rounded half to even as printf("%.1f") rounds; the next
 * unit from where that would show 1024.0: for each unit the last value
 * below 1023.95 of it, the first above (no value is 1023.95 of a unit
 * exactly), and the last below 1024 of it.
 */
static const struct num_case bytes_cases[] = {
	{ 0, "0 B" },
	{ 1, "1 B" },
	{ 1023, "1023 B" },
	{ 1024, "1.0 KiB" },
	{ 1075, "1.0 KiB" },
	{ 1076, "1.1 KiB" },
	{ 1280, "1.2 KiB" },		/* 1.25: a tie, to even */
	{ 1281, "1.3 KiB" },
	{ 1536, "1.5 KiB" },
	{ 1048524, "1023.9 KiB" },
	{ 1048525, "1.0 MiB" },
	{ 1048575, "1.0 MiB" },
	{ 1048576, "1.0 MiB" },
	{ 1073689395, "1023.9 MiB" },
	{ 1073689396, "1.0 GiB" },
	{ 1073741823, "1.0 GiB" },
	{ 4096ULL * 262144, "1.0 GiB" },
	{ 1099457940684ULL, "1023.9 GiB" },
	{ 1099457940685ULL, "1.0 TiB" },
	{ 1099511627775ULL, "1.0 TiB" },
	{ 1099511627776ULL, "1.0 TiB" },
	{ 1125844931261235ULL, "1023.9 TiB" },
	{ 1125844931261236ULL, "1.0 PiB" },
	{ 1125899906842623ULL, "1.0 PiB" },
	{ 1125899906842624ULL, "1.0 PiB" },
	{ 1152865209611504844ULL, "1023.9 PiB" },
	{ 1152865209611504845ULL, "1.0 EiB" },
	{ 1152921504606846975ULL, "1.0 EiB" },
	{ 1152921504606846976ULL, "1.0 EiB" },
	{ 1ULL << 63, "8.0 EiB" },
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

/* wait --timeout: seconds as people give them, to WAIT_MAX_SECONDS. */
static const struct {
	const char *in;
	long long ns;		/* -1: refused */
} seconds_cases[] = {
	{ "0", 0 },
	{ "1", 1000000000 },
	{ "0.3", 300000000 },
	{ "0.5", 500000000 },
	{ "007.50", 7500000000LL },
	{ "0.000000001", 1 },
	{ "1.123456789", 1123456789 },
	{ "86400", 86400000000000LL },
	{ "86400.000000000", 86400000000000LL },
	{ "86399.999999999", 86399999999999LL },
	{ "86400.000000001", -1 },
	{ "86401", -1 },
	{ "99999999999999999999999999", -1 },
	{ "0.0000000001", -1 },		/* below a nanosecond */
	{ "", -1 },
	{ "-1", -1 },
	{ "+1", -1 },
	{ " 1", -1 },
	{ "1 ", -1 },
	{ "1\n", -1 },
	{ "1.", -1 },
	{ ".5", -1 },
	{ "1..2", -1 },
	{ "1,5", -1 },
	{ "1e3", -1 },
	{ "0x10", -1 },
	{ "inf", -1 },
	{ "nan", -1 },
	{ "\xd9\xa1", -1 },		/* ARABIC-INDIC DIGIT ONE */
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
	for (i = 0; i < ARRAY_SIZE(seconds_cases); i++) {
		long long ns = -2, want = seconds_cases[i].ns;
		int ret = ctl_parse_seconds(seconds_cases[i].in, WAIT_MAX_SECONDS,
					    &ns);

		if (want >= 0 && (ret || ns != want))
			ktap_diag("ret %d, ns %lld, want %lld", ret, ns, want);
		ktap_result(want >= 0 ? !ret && ns == want : ret && ns == -2,
			    "parse_seconds %s %s",
			    quote(seconds_cases[i].in, buf, sizeof(buf)),
			    want >= 0 ? "takes" : "refuses");
	}
}
