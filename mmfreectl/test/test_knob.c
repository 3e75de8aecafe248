// SPDX-License-Identifier: GPL-2.0
/*
 * The knob table as mmfreectl reads it: every knob's limits held as the
 * module holds them (decimal digits only, no sign, blank or newline), the
 * names of a knob with names spelt exactly and never their index, lookups
 * by path and parameter, and what a refusal says.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mmfreectl.h"
#include "test.h"

#define UNSET 0xdeadbeefU

/* s parses to want, or (ok false) is refused with *val left alone. */
static void expect_parse(const struct mmfree_knob_desc *d, const char *s,
			 bool ok, unsigned int want)
{
	unsigned int val = UNSET;
	char q[128];
	int ret;

	ret = ctl_knob_parse(d, s, &val);
	quote(s, q, sizeof(q));
	if (ok)
		ktap_result(!ret && val == want, "%s takes %s", d->path, q);
	else
		ktap_result(ret && val == UNSET, "%s refuses %s", d->path, q);
}

/* expect_parse() of a printf format. */
static __printf(4, 5) void expect_parsef(const struct mmfree_knob_desc *d,
					 bool ok, unsigned int want,
					 const char *fmt, ...)
{
	char s[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	expect_parse(d, s, ok, want);
}

static void test_number(const struct mmfree_knob_desc *d)
{
	unsigned long long max1 = d->max + 1ULL;
	char want[64], range[64];

	expect_parsef(d, true, d->min, "%u", d->min);
	expect_parsef(d, true, d->max, "%u", d->max);
	expect_parsef(d, true, d->def, "%u", d->def);
	expect_parsef(d, true, d->min, "0%u", d->min);
	expect_parsef(d, false, 0, "%llu", max1);
	if (d->min > 0)
		expect_parsef(d, false, 0, "%u", d->min - 1);
	/* 0 turns such a knob off; otherwise 0 is below a positive min. */
	if (d->off) {
		expect_parse(d, "0", true, 0);
		expect_parse(d, "00", true, 0);
		expect_parsef(d, false, 0, "%u", 1);
	} else if (d->min > 0) {
		expect_parse(d, "0", false, 0);
	}
	expect_parse(d, "", false, 0);
	expect_parsef(d, false, 0, "+%u", d->min);
	expect_parsef(d, false, 0, "-%u", d->min);
	expect_parse(d, "-1", false, 0);
	expect_parsef(d, false, 0, "0x%x", d->min);
	expect_parsef(d, false, 0, " %u", d->min);
	expect_parsef(d, false, 0, "%u ", d->min);
	expect_parsef(d, false, 0, "%u\n", d->min);
	expect_parsef(d, false, 0, "%u.0", d->min);
	/* Above 2^32, where a 32-bit parser would wrap to min. */
	expect_parsef(d, false, 0, "%llu", (1ULL << 32) + d->min);
	expect_parse(d, "99999999999999999999999999", false, 0);

	snprintf(want, sizeof(want), "%s%u-%u", d->off ? "0|" : "", d->min,
		 d->max);
	ktap_streq(ctl_knob_range(d, range, sizeof(range)), want, "%s range",
		   d->path);
}

static void test_names(const struct mmfree_knob_desc *d)
{
	char buf[64], num[16];
	unsigned int i;
	size_t j;

	for (i = d->min; i <= d->max; i++) {
		const char *name = d->names[i];

		expect_parse(d, name, true, i);
		expect_parsef(d, false, 0, "%u", i);
		snprintf(buf, sizeof(buf), "%s", name);
		buf[0] = toupper((unsigned char)buf[0]);
		expect_parse(d, buf, false, 0);		/* "Sync" */
		for (j = 0; buf[j]; j++)
			buf[j] = toupper((unsigned char)buf[j]);
		expect_parse(d, buf, false, 0);		/* "SYNC" */
		expect_parsef(d, false, 0, "%s\n", name);
		expect_parsef(d, false, 0, " %s", name);
		expect_parsef(d, false, 0, "%s ", name);
		expect_parsef(d, false, 0, "%sx", name);
		expect_parsef(d, false, 0, "%.*s", (int)strlen(name) - 1, name);
	}
	expect_parse(d, "", false, 0);
	snprintf(num, sizeof(num), "%u", d->max + 1);
	ktap_streq(ctl_knob_format(d, d->max + 1, buf, sizeof(buf)), num,
		   "%s formats a value past its names as a number", d->path);
}

/* What every knob of the table must hold to. */
static void test_table(const struct mmfree_knob_desc *d)
{
	unsigned int val = UNSET;
	char buf[16], param[128];

	ktap_result((d->min <= d->def && d->def <= d->max) ||
		    (d->off && d->def == 0),
		    "%s default within its limits", d->path);
	/* 0 must not be both "off" and a value within the limits. */
	ktap_result(!d->off || d->min > 1, "%s: off is not in its range",
		    d->path);
	/* Its default, formatted as sysfs shows it, reads back. */
	ctl_knob_parse(d, ctl_knob_format(d, d->def, buf, sizeof(buf)), &val);
	ktap_result(val == d->def, "%s default reads back", d->path);
	ctl_knob_param(d, param, sizeof(param));
	ktap_result(ctl_knob_find(d->path) == d && ctl_knob_find(param) == d &&
		    ctl_knob_find_param(param) == d,
		    "%s found by path and as %s", d->path, param);
}

struct find_case {
	const char *key;
	bool param;			/* ctl_knob_find_param() */
	enum mmfree_knob_id want;	/* MMFREE_NR_KNOBS: none */
};

static const struct find_case find_cases[] = {
	{ "percpu/min_empty_pages", false, MMFREE_KNOB_PERCPU_MIN_EMPTY_PAGES },
	{ "percpu_min_empty_pages", false, MMFREE_KNOB_PERCPU_MIN_EMPTY_PAGES },
	{ "percpu-min-empty-pages", false, MMFREE_NR_KNOBS },
	{ "percpu", false, MMFREE_NR_KNOBS },
	{ "", false, MMFREE_NR_KNOBS },
	{ "Enabled", false, MMFREE_NR_KNOBS },
	{ "pagefree-mode", true, MMFREE_KNOB_PAGEFREE_MODE },
	{ "pagefree_mode", true, MMFREE_KNOB_PAGEFREE_MODE },
	{ "pagefree/mode", true, MMFREE_NR_KNOBS },
	{ "percpu-keep_empty-pages", true, MMFREE_KNOB_PERCPU_KEEP_EMPTY_PAGES },
	{ "test_missing_ksym", true, MMFREE_NR_KNOBS },
};

static void test_find(void)
{
	const struct mmfree_knob_desc *d, *want;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(find_cases); i++) {
		const struct find_case *c = &find_cases[i];

		want = c->want < MMFREE_NR_KNOBS ?
		       &mmfree_knob_descs[c->want] : NULL;
		d = c->param ? ctl_knob_find_param(c->key) :
			       ctl_knob_find(c->key);
		ktap_result(d == want, "%s '%s': %s",
			    c->param ? "knob_find_param" : "knob_find", c->key,
			    want ? want->path : "none");
	}
	ktap_result(ctl_feature_switch("percpu") ==
		    &mmfree_knob_descs[MMFREE_KNOB_PERCPU_ENABLED] &&
		    ctl_feature_switch("pagefree") ==
		    &mmfree_knob_descs[MMFREE_KNOB_PAGEFREE_ENABLED],
		    "feature_switch percpu, pagefree");
	ktap_result(!ctl_feature_switch("percpu/enabled") &&
		    !ctl_feature_switch("pagefree_x") &&
		    !ctl_feature_switch("nosuch"),
		    "feature_switch refuses paths, parameters, unknown names");
	ktap_result(ctl_stat_find("percpu/stats/scans") ==
		    &mmfree_stat_descs[MMFREE_STAT_PERCPU_SCANS] &&
		    !ctl_stat_find("scans") && !ctl_stat_find("version"),
		    "stat_find by path only");
}

static void test_messages(void)
{
	const struct mmfree_knob_desc *mode, *keep;
	char err[2048];
	int rc;

	mode = &mmfree_knob_descs[MMFREE_KNOB_PAGEFREE_MODE];
	keep = &mmfree_knob_descs[MMFREE_KNOB_PERCPU_KEEP_EMPTY_PAGES];
	ktap_streq(ctl_knob_range(mode, err, sizeof(err)), "sync|async",
		   "pagefree/mode range");

	capture_stderr_begin();
	rc = ctl_bad_value(keep, "2");
	capture_stderr_end(err, sizeof(err));
	ktap_streq(err,
		   "mmfreectl: invalid value '2' for percpu/keep_empty_pages: expected an integer from 4 to 65536\n",
		   "bad_value of a number");
	ktap_result(rc == RC_USAGE, "bad_value: exit status 2");

	capture_stderr_begin();
	ctl_bad_value(mode, "1");
	capture_stderr_end(err, sizeof(err));
	ktap_streq(err,
		   "mmfreectl: invalid value '1' for pagefree/mode: expected one of: sync, async\n",
		   "bad_value of a name");

	capture_stderr_begin();
	rc = ctl_unknown_knob("nosuch");
	capture_stderr_end(err, sizeof(err));
	ktap_streq(err, "mmfreectl: unknown knob 'nosuch'\n" KNOBS,
		   "unknown_knob lists the knobs");
	ktap_result(rc == RC_USAGE, "unknown_knob: exit status 2");

	capture_stderr_begin();
	ctl_feature_list(stderr);
	capture_stderr_end(err, sizeof(err));
	ktap_streq(err, "features: percpu pagefree\n", "feature_list");
}

void test_knob(void)
{
	size_t i;

	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];

		test_table(d);
		if (d->names)
			test_names(d);
		else
			test_number(d);
	}
	test_find();
	test_messages();
}
