// SPDX-License-Identifier: GPL-2.0
/*
 * Module options: ctl_opt_next() against the kernel's next_arg() on the
 * cases lib/cmdline.c handles, ctl_conf_check() on /etc/modprobe.d
 * options, ctl_load_opts() on load's arguments.
 */
#include <stdio.h>
#include <string.h>

#include "mmfreectl.h"
#include "test.h"

typedef char *(*lexer_t)(char *args, char **param, char **val);

static char *kernel_skip(char *s)
{
	return kernel_skip_spaces(s);
}

/*
 * The options of s as a lexer and its blank skipper split them, as the
 * kernel's parse_args() loops: "<param>=<value>", or "<param>" without
 * '=', separated by a space.
 */
static void lex(const char *s, lexer_t next, char *(*skip)(char *),
		char *out, size_t size)
{
	char buf[256], *rest, *param, *val;
	size_t len = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	out[0] = '\0';
	for (rest = skip(buf); *rest && len < size; ) {
		rest = next(rest, &param, &val);
		len += snprintf(out + len, size - len, "%s<%s>%s%s%s",
				len ? " " : "", param, val ? "=<" : "",
				val ?: "", val ? ">" : "");
	}
}

struct lex_case {
	const char *in;
	const char *want;	/* as lex() prints it */
};

/* next_arg()'s cases: blanks, quotes, '=' where it may be. */
static const struct lex_case lex_cases[] = {
	{ "", "" },
	{ "a=1", "<a>=<1>" },
	{ "a=1 b=2", "<a>=<1> <b>=<2>" },
	{ "   a=1    b=2   ", "<a>=<1> <b>=<2>" },
	{ "a=1\tb=2\nc=3", "<a>=<1> <b>=<2> <c>=<3>" },
	{ "a=1 \t\n b=2\n", "<a>=<1> <b>=<2>" },
	{ " \t\n", "" },
	{ "flag", "<flag>" },
	{ "flag a=1 other", "<flag> <a>=<1> <other>" },
	{ "a=", "<a>=<>" },
	{ "a= b=", "<a>=<> <b>=<>" },
	{ "a=\"quoted value\"", "<a>=<quoted value>" },
	{ "a=\"quoted value\" b=2", "<a>=<quoted value> <b>=<2>" },
	{ "\"a=whole param\"", "<a>=<whole param>" },
	{ "\"a=whole\" b=2", "<a>=<whole> <b>=<2>" },
	{ "\"flag with blanks\"", "<flag with blanks>" },
	{ "a=\"\"", "<a>=<>" },
	{ "\"\"", "<>" },
	{ "a=\"unterminated value", "<a>=<unterminated value>" },
	{ "a=\"1 b=2", "<a>=<1 b=2>" },
	{ "a=\"x\"y", "<a>=<x\"y>" },
	{ "a=x\"y z\"", "<a>=<x\"y z\">" },
	{ "\"a\"=1", "<a\">=<1>" },
	{ "=1", "<=1>" },
	{ "=1=2", "<=1>=<2>" },
	{ "a==1", "<a>=<=1>" },
	{ "a=1=2", "<a>=<1=2>" },
	{ "a='1 2'", "<a>=<'1> <2'>" },
	{ "-- a=1", "<--> <a>=<1>" },
	{ "pagefree_mode=\"async\" pagefree-workers=3",
	  "<pagefree_mode>=<async> <pagefree-workers>=<3>" },
};

/*
 * Blanks of the kernel's isspace() beyond space, tab and newline: a CRLF
 * line of /etc/modprobe.d must split as the kernel splits it.
 */
static const char *const lex_blanks[] = {
	"a=1\r\nb=2", "a=1\vb=2", "a=1\fb=2", "a=1\xa0z=2",
};

static void test_lexer(void)
{
	char ours[512], kernel[512], q[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lex_cases); i++) {
		const struct lex_case *c = &lex_cases[i];

		quote(c->in, q, sizeof(q));
		lex(c->in, kernel_next_arg, kernel_skip, kernel,
		    sizeof(kernel));
		lex(c->in, ctl_opt_next, ctl_opt_skip_blanks, ours,
		    sizeof(ours));
		ktap_streq(kernel, c->want, "next_arg %s as expected", q);
		ktap_streq(ours, kernel, "opt_next %s as next_arg", q);
	}
	for (i = 0; i < ARRAY_SIZE(lex_blanks); i++) {
		lex(lex_blanks[i], kernel_next_arg, kernel_skip, kernel,
		    sizeof(kernel));
		lex(lex_blanks[i], ctl_opt_next, ctl_opt_skip_blanks, ours,
		    sizeof(ours));
		ktap_streq(ours, kernel, "opt_next %s as next_arg",
			   quote(lex_blanks[i], q, sizeof(q)));
	}
}

struct conf_case {
	const char *conf;
	int bad;
	const char *err;	/* what is said, NULL for nothing */
};

#define MODPROBE_D " in /etc/modprobe.d: "

static const struct conf_case conf_cases[] = {
	{ "", 0, NULL },
	{ "percpu_min_empty_pages=3 pagefree_mode=async", 0, NULL },
	{ "pagefree_mode=\"async\" pagefree-workers=3", 0, NULL },
	/* Not knobs: the kernel's to judge, or to ignore. */
	{ "test_missing_ksym=x percpu/enabled=7 nosuch=1", 0, NULL },
	/* parse_args(): what follows "--" is ignored. */
	{ "pagefree_mode=async -- pagefree_mode=bad", 0, NULL },
	/* A CRLF line: "\r" separates, as in the kernel. */
	{ "pagefree_mode=async\r\n", 0, NULL },
	{ "percpu_keep_empty_pages=2", 1,
	  "mmfreectl: invalid value '2' for percpu_keep_empty_pages"
	  MODPROBE_D "expected an integer from 4 to 65536\n" },
	{ "pagefree_workers=2 pagefree_mode=2 pagefree-mode=Sync", 2,
	  "mmfreectl: invalid value '2' for pagefree_mode" MODPROBE_D
	  "expected one of: sync, async\n"
	  "mmfreectl: invalid value 'Sync' for pagefree-mode" MODPROBE_D
	  "expected one of: sync, async\n" },
	{ "pagefree_mode= ", 1,
	  "mmfreectl: invalid value '' for pagefree_mode" MODPROBE_D
	  "expected one of: sync, async\n" },
	{ "enabled", 1,
	  "mmfreectl: invalid value '' for enabled" MODPROBE_D
	  "expected an integer from 0 to 1\n" },
	{ "\"enabled=2\"", 1,
	  "mmfreectl: invalid value '2' for enabled" MODPROBE_D
	  "expected an integer from 0 to 1\n" },
};

static void test_conf_check(void)
{
	char err[1024], q[256];
	size_t i;
	int bad;

	for (i = 0; i < ARRAY_SIZE(conf_cases); i++) {
		const struct conf_case *c = &conf_cases[i];

		quote(c->conf, q, sizeof(q));
		capture_stderr_begin();
		bad = ctl_conf_check(c->conf);
		capture_stderr_end(err, sizeof(err));
		ktap_result(bad == c->bad, "conf_check %s: %d bad", q, c->bad);
		ktap_streq(err, c->err ?: "", "conf_check %s: message", q);
	}
}

struct load_case {
	const char *name;
	int argc;
	char *argv[4];
	int rc;
	const char *out;	/* the options, or the message */
};

#define TRY_HELP "Try 'mmfreectl --help'.\n"

static const struct load_case load_cases[] = {
	{ "no options", 0, { NULL }, RC_OK, "" },
	{ "paths and parameters", 3,
	  { "enabled=0", "percpu/min_empty_pages=7", "pagefree_mode=async" },
	  RC_OK, "enabled=0 percpu_min_empty_pages=7 pagefree_mode=async" },
	{ "a number as given", 1, { "percpu_interval_ms=0005000" }, RC_OK,
	  "percpu_interval_ms=5000" },
	{ "a load-time parameter", 2, { "untested_kernel=1", "enabled=1" },
	  RC_OK, "untested_kernel=1 enabled=1" },
	{ "a load-time parameter out of range", 1, { "untested_kernel=2" },
	  RC_USAGE,
	  "mmfreectl: invalid value '2' for untested_kernel: expected an integer from 0 to 1\n" },
	{ "a load-time parameter given twice", 2,
	  { "untested_kernel=0", "untested_kernel=1" }, RC_USAGE,
	  "mmfreectl: load: untested_kernel given twice\n" TRY_HELP },
	{ "given twice", 2, { "enabled=1", "enabled=0" }, RC_USAGE,
	  "mmfreectl: load: enabled given twice\n" TRY_HELP },
	{ "path and parameter of one knob", 2,
	  { "pagefree_mode=sync", "pagefree/mode=async" }, RC_USAGE,
	  "mmfreectl: load: pagefree/mode given twice\n" TRY_HELP },
	{ "no '='", 1, { "enabled" }, RC_USAGE,
	  "mmfreectl: load: expected KEY=VALUE, got 'enabled'\n" TRY_HELP },
	{ "no key", 1, { "=1" }, RC_USAGE,
	  "mmfreectl: load: expected KEY=VALUE, got '=1'\n" TRY_HELP },
	{ "'-' for '_'", 1, { "pagefree-mode=async" }, RC_USAGE,
	  "mmfreectl: unknown knob 'pagefree-mode'\n" KNOBS
	  "parameters: untested_kernel\n" },
	{ "a number for a name", 1, { "pagefree_mode=1" }, RC_USAGE,
	  "mmfreectl: invalid value '1' for pagefree/mode: expected one of: sync, async\n" },
	{ "out of range", 1, { "pagefree_batch_pages=513" }, RC_USAGE,
	  "mmfreectl: invalid value '513' for pagefree/batch_pages: expected an integer from 16 to 512\n",
	},
};

static void test_load_opts(void)
{
	char opts[1024], err[1024];
	size_t i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(load_cases); i++) {
		const struct load_case *c = &load_cases[i];
		char *argv[4];

		memcpy(argv, c->argv, sizeof(argv));
		capture_stderr_begin();
		rc = ctl_load_opts(c->argc, argv, opts, sizeof(opts));
		capture_stderr_end(err, sizeof(err));
		ktap_result(rc == c->rc, "load_opts %s: exit status %d",
			    c->name, c->rc);
		ktap_streq(rc ? err : opts, c->out, "load_opts %s: %s",
			   c->name, rc ? "message" : "options");
	}
}

void test_modopt(void)
{
	test_lexer();
	test_conf_check();
	test_load_opts();
}
