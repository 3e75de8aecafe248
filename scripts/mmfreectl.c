// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl: load, unload, inspect and configure the mmfree module.
 *
 * Knob names, defaults and limits come from include/mmfree/knobs.h, the
 * statistics from include/mmfree/stats.h: the module and this tool share
 * one declaration (built with -DMMFREE_KNOB_TABLE -DMMFREE_STAT_TABLE).
 * Every KEY and VALUE is checked against those limits (or, for a knob
 * with names, its names) before anything is written or loaded, so that a
 * usage error (exit status 2) changes nothing; load checks the options of
 * /etc/modprobe.d the same way.  The module is loaded and removed with
 * libkmod, as modprobe does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libkmod.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <mmfree/knobs.h>
#include <mmfree/stats.h>

#ifndef MMFREE_VERSION
#define MMFREE_VERSION "unknown"
#endif

#define MODNAME "mmfree"

/* Exit statuses, as documented in mmfreectl(8). */
enum {
	RC_OK = 0,		/* done */
	RC_FAILED = 1,		/* the kernel or the system refused */
	RC_USAGE = 2,		/* bad command, key or value: nothing changed */
	RC_UNAVAILABLE = 3,	/* module not loaded, or feature unavailable */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Macros rather than functions: the compiler checks every format. */
#define err(fmt, ...) \
	fprintf(stderr, "mmfreectl: " fmt "\n", ##__VA_ARGS__)

/* An invalid command line: says why, returns RC_USAGE. */
#define usage_error(fmt, ...) \
	(fprintf(stderr, "mmfreectl: " fmt "\nTry 'mmfreectl --help'.\n", \
		 ##__VA_ARGS__), RC_USAGE)

static void usage(FILE *f)
{
	fputs("Usage: mmfreectl COMMAND [ARGS]\n"
	      "\n"
	      "Commands:\n"
	      "  load [KEY=VALUE ...]   load mmfree (with /etc/modprobe.d options)\n"
	      "  unload                 remove mmfree\n"
	      "  status [--json]        module, version, kernel, knobs, stats\n"
	      "  get KEY                print a knob or statistic\n"
	      "  set KEY VALUE          change a knob\n"
	      "  enable [FEATURE]       set enabled (or FEATURE/enabled) to 1\n"
	      "  disable [FEATURE]      set enabled (or FEATURE/enabled) to 0\n"
	      "  percpu reclaim         depopulate empty percpu pages now\n"
	      "\n"
	      "Options: -h, --help; --version\n"
	      "\n"
	      "KEY is a knob path (percpu/min_empty_pages) or its module\n"
	      "parameter name (percpu_min_empty_pages); VALUE is a decimal\n"
	      "integer within the knob's range or, for a knob with names\n"
	      "(pagefree/mode), one of its names (see mmfreectl status).\n"
	      "\n"
	      "Exit status: 0 ok; 1 operation failed; 2 invalid command, key\n"
	      "or value (nothing changed); 3 module not loaded or feature\n"
	      "unavailable.\n", f);
}

/* --- the knob and stat tables ------------------------------------- */

/* The module parameter of a knob: its path with '/' replaced by '_'. */
static void knob_param(const struct mmfree_knob_desc *d, char *buf,
		       size_t size)
{
	char *p;

	snprintf(buf, size, "%s", d->path);
	for (p = buf; *p; p++)
		if (*p == '/')
			*p = '_';
}

static const struct mmfree_knob_desc *knob_find(const char *key)
{
	char param[128];
	size_t i;

	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];

		knob_param(d, param, sizeof(param));
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
static const struct mmfree_knob_desc *knob_find_param(const char *name)
{
	char key[128], *p;

	if (strchr(name, '/') ||
	    snprintf(key, sizeof(key), "%s", name) >= (int)sizeof(key))
		return NULL;
	for (p = key; *p; p++)
		if (*p == '-')
			*p = '_';
	return knob_find(key);
}

static void knob_list(FILE *f)
{
	size_t i;

	fputs("knobs:", f);
	for (i = 0; i < MMFREE_NR_KNOBS; i++)
		fprintf(f, " %s", mmfree_knob_descs[i].path);
	fputc('\n', f);
}

static int unknown_knob(const char *key)
{
	err("unknown knob '%s'", key);
	knob_list(stderr);
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
	if (v < d->min)
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

static int knob_parse(const struct mmfree_knob_desc *d, const char *s,
		      unsigned int *val)
{
	if (d->names)
		return knob_parse_name(d, s, val);
	return knob_parse_number(d, s, val);
}

/* A value as sysfs and the module parameter take it: a name or a number. */
static const char *knob_format(const struct mmfree_knob_desc *d,
			       unsigned int val, char *buf, size_t size)
{
	if (d->names && val <= d->max)
		return d->names[val];
	snprintf(buf, size, "%u", val);
	return buf;
}

/* The values a knob takes: "0-1", or its names, "sync|async". */
static const char *knob_range(const struct mmfree_knob_desc *d, char *buf,
			      size_t size)
{
	size_t len = 0;
	unsigned int i;

	if (!d->names) {
		snprintf(buf, size, "%u-%u", d->min, d->max);
		return buf;
	}
	buf[0] = '\0';
	for (i = d->min; i <= d->max && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s",
				i > d->min ? "|" : "", d->names[i]);
	return buf;
}

/*
 * Why s is not a value of the knob d, called name where it was given
 * (the path, or the parameter as spelt), from where ("" or " in ...").
 */
static void bad_value_msg(const struct mmfree_knob_desc *d, const char *name,
			  const char *s, const char *where)
{
	char names[256];
	size_t len = 0;
	unsigned int i;

	if (!d->names) {
		err("invalid value '%s' for %s%s: expected an integer from %u to %u",
		    s, name, where, d->min, d->max);
		return;
	}
	names[0] = '\0';
	for (i = d->min; i <= d->max && len < sizeof(names); i++)
		len += snprintf(names + len, sizeof(names) - len, "%s%s",
				i > d->min ? ", " : "", d->names[i]);
	err("invalid value '%s' for %s%s: expected one of: %s", s, name, where,
	    names);
}

static int bad_value(const struct mmfree_knob_desc *d, const char *s)
{
	bad_value_msg(d, d->path, s, "");
	return RC_USAGE;
}

/* A feature is a directory with an "enabled" knob: "percpu", "pagefree". */
static const struct mmfree_knob_desc *feature_switch(const char *feature)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/enabled", feature);
	if (strchr(feature, '/') || strchr(feature, '_'))
		return NULL;
	return knob_find(path);
}

static int feature_of(const char *path, char *buf, size_t size)
{
	const char *slash = strchr(path, '/');

	if (!slash)
		return 0;
	snprintf(buf, size, "%.*s", (int)(slash - path), path);
	return 1;
}

/* Whether knob i is the switch of a feature, and if so its name. */
static int feature_at(size_t i, char *buf, size_t size)
{
	const char *path = mmfree_knob_descs[i].path;

	return feature_of(path, buf, size) &&
	       !strcmp(path + strlen(buf), "/enabled");
}

static void feature_list(FILE *f)
{
	char feature[64];
	size_t i;

	fputs("features:", f);
	for (i = 0; i < MMFREE_NR_KNOBS; i++)
		if (feature_at(i, feature, sizeof(feature)))
			fprintf(f, " %s", feature);
	fputc('\n', f);
}

static const struct mmfree_stat_desc *stat_find(const char *key)
{
	char path[256];
	size_t i;

	for (i = 0; i < MMFREE_NR_STATS; i++) {
		const struct mmfree_stat_desc *s = &mmfree_stat_descs[i];

		snprintf(path, sizeof(path), "%s/%s", s->dir, s->name);
		if (!strcmp(key, path))
			return s;
	}
	return NULL;
}

/* get also reads the statistics and the version. */
static int unknown_key(const char *key)
{
	size_t i;

	err("unknown key '%s'", key);
	knob_list(stderr);
	fputs("read-only: version", stderr);
	for (i = 0; i < MMFREE_NR_STATS; i++)
		fprintf(stderr, " %s/%s", mmfree_stat_descs[i].dir,
			mmfree_stat_descs[i].name);
	fputc('\n', stderr);
	return RC_USAGE;
}

/* --- sysfs ---------------------------------------------------------- */

static int sysfs_path(const char *rel, char *buf, size_t size)
{
	return snprintf(buf, size, "%s/%s", MMFREE_SYSFS_DIR, rel) >=
	       (int)size ? -ENAMETOOLONG : 0;
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int module_loaded(void)
{
	return is_dir(MMFREE_SYSFS_DIR);
}

/*
 * A feature the running kernel cannot run has no directory: the module
 * loads without it and says why in dmesg.
 */
static int feature_available(const char *feature)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", MMFREE_SYSFS_DIR, feature);
	return is_dir(dir);
}

/* One line for each feature the loaded module left out. */
static void unavailable_list(void)
{
	char feature[64];
	size_t i;

	for (i = 0; i < MMFREE_NR_KNOBS; i++)
		if (feature_at(i, feature, sizeof(feature)) &&
		    !feature_available(feature))
			printf("%s: unavailable (see dmesg)\n", feature);
}

/* Read one value (the trailing newline dropped); 0 or -errno. */
static int sysfs_read(const char *rel, char *buf, size_t size)
{
	char path[256];
	ssize_t n;
	int fd, ret;

	ret = sysfs_path(rel, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* Write the whole string in one write(2); 0 or -errno. */
static int sysfs_write(const char *rel, const char *val)
{
	size_t len = strlen(val);
	char path[256];
	ssize_t n;
	int fd, ret;

	ret = sysfs_path(rel, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	ret = n < 0 ? -errno : (size_t)n == len ? 0 : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int sysfs_read_ll(const char *rel, long long *val)
{
	char buf[64], *end;
	int ret;

	ret = sysfs_read(rel, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	*val = strtoll(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

/*
 * Whether the file at path (a knob or stat path) can be reached: the
 * module must be loaded and the feature, if any, available.  Prints why
 * not and returns RC_UNAVAILABLE.
 */
static int check_available(const char *path)
{
	char feature[64];

	if (!module_loaded()) {
		err("mmfree is not loaded (load it with: mmfreectl load)");
		return RC_UNAVAILABLE;
	}
	if (feature_of(path, feature, sizeof(feature)) &&
	    !feature_available(feature)) {
		err("%s: unavailable (see dmesg)", feature);
		return RC_UNAVAILABLE;
	}
	return RC_OK;
}

static int write_error(const char *what, const char *val, int ret)
{
	if (ret == -EACCES || ret == -EPERM)
		err("cannot write %s: %s (are you root?)", what,
		    strerror(-ret));
	else
		err("the kernel rejected %s for %s: %s", val, what,
		    strerror(-ret));
	return RC_FAILED;
}

/* --- libkmod -------------------------------------------------------- */

static void kmod_quiet(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
{
	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	/* mmfreectl explains failures itself: libkmod's log is for debugging. */
	if (getenv("MMFREECTL_DEBUG")) {
		fputs("libkmod: ", stderr);
		vfprintf(stderr, format, args);
	}
}

static struct kmod_ctx *kmod_open(void)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);

	if (!ctx) {
		err("cannot initialise libkmod: %s", strerror(errno));
		return NULL;
	}
	kmod_set_log_fn(ctx, kmod_quiet, NULL);
	return ctx;
}

static const char *kernel_release(void)
{
	static struct utsname u;

	if (!u.release[0] && uname(&u))
		return "unknown";
	return u.release;
}

/*
 * The module's state in the kernel: KMOD_MODULE_LIVE, _COMING, _GOING,
 * or -ENOENT when not loaded.
 */
static int module_state(struct kmod_ctx *ctx)
{
	struct kmod_module *mod;
	int state;

	if (kmod_module_new_from_name(ctx, MODNAME, &mod) < 0)
		return -ENOENT;
	state = kmod_module_get_initstate(mod);
	kmod_module_unref(mod);
	return state;
}

/* The installed module for the running kernel, or NULL. */
static struct kmod_module *module_lookup(struct kmod_ctx *ctx)
{
	struct kmod_module *mod = NULL;
	struct kmod_list *list = NULL;

	/* libkmod 30: 0 with an empty list when nothing matches. */
	if (kmod_module_new_from_lookup(ctx, MODNAME, &list) < 0 || !list)
		return NULL;
	mod = kmod_module_get_module(list);
	kmod_module_unref_list(list);
	return mod;
}

/* /dev/kmsg, positioned at its end: to show the module's messages. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Print the kernel's mmfree lines logged since kmsg_open(); how many. */
static int kmsg_show(int fd)
{
	char rec[2048];
	int shown = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	for (;;) {
		char *msg, *nl;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		/* "prio,seq,usec,flags;text\n" and " KEY=VALUE" lines */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		if (strstr(msg, MODNAME)) {
			fprintf(stderr, "  kernel: %s\n", msg);
			shown++;
		}
	}
	close(fd);
	return shown;
}

/* --- commands ------------------------------------------------------- */

/*
 * The KEY=VALUE arguments of load as module options, "param=value ...",
 * each checked as set checks it: RC_OK, or RC_USAGE after saying why.
 */
static int load_opts(int argc, char **argv, char *opts, size_t size)
{
	int given[MMFREE_NR_KNOBS] = { 0 };
	char param[128], num[16];
	size_t len = 0;
	int i;

	opts[0] = '\0';
	for (i = 0; i < argc; i++) {
		const struct mmfree_knob_desc *d;
		char *eq = strchr(argv[i], '='), key[128];
		unsigned int val;

		if (!eq || eq == argv[i])
			return usage_error("load: expected KEY=VALUE, got '%s'",
					   argv[i]);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - argv[i]),
			 argv[i]);
		d = knob_find(key);
		if (!d)
			return unknown_knob(key);
		if (knob_parse(d, eq + 1, &val))
			return bad_value(d, eq + 1);
		if (given[d - mmfree_knob_descs]++)
			return usage_error("load: %s given twice", d->path);
		knob_param(d, param, sizeof(param));
		len += snprintf(opts + len, size - len, "%s%s=%s",
				len ? " " : "", param,
				knob_format(d, val, num, sizeof(num)));
		if (len >= size)
			return usage_error("load: too many options");
	}
	return RC_OK;
}

static char *skip_blanks(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

/*
 * Split off the first "param[=value]" of a module option string as the
 * kernel does (next_arg() in lib/cmdline.c): blanks separate, double
 * quotes group, and quotes around the value or the whole option are
 * dropped.  *val is NULL without '='.  Returns the rest.
 */
static char *opt_next(char *args, char **param, char **val)
{
	size_t i, equals = 0;
	int in_quote = 0, quoted = 0;

	if (*args == '"') {
		args++;
		in_quote = 1;
		quoted = 1;
	}
	for (i = 0; args[i]; i++) {
		if (strchr(" \t\n", args[i]) && !in_quote)
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
	return skip_blanks(args + i);
}

/*
 * The options /etc/modprobe.d (or mmfree.KEY=VALUE on the kernel command
 * line) gives mmfree, checked before loading: the kernel stops at the
 * first value it refuses, even one a later option would override, and
 * says so only in dmesg.  Options that are not knobs (test_*, or unknown
 * ones the kernel ignores) are the kernel's to judge.  Returns how many
 * are bad, each said.
 */
static int conf_check(const char *conf)
{
	const struct mmfree_knob_desc *d;
	char *args, *rest, *param, *val;
	unsigned int v;
	int bad = 0;

	args = strdup(conf);
	if (!args)
		return 0;	/* then the kernel checks them */
	for (rest = skip_blanks(args); *rest; ) {
		rest = opt_next(rest, &param, &val);
		d = knob_find_param(param);
		if (d && (!val || knob_parse(d, val, &v))) {
			bad_value_msg(d, param, val ?: "", " in /etc/modprobe.d");
			bad++;
		}
	}
	free(args);
	return bad;
}

static int cmd_load(int argc, char **argv)
{
	char opts[1024], param[128];
	struct kmod_module *mod;
	struct kmod_ctx *ctx;
	const char *conf;
	int ret, kmsg, state;

	ret = load_opts(argc, argv, opts, sizeof(opts));
	if (ret)
		return ret;

	ctx = kmod_open();
	if (!ctx)
		return RC_FAILED;
	state = module_state(ctx);
	if (state >= 0) {
		err("mmfree is already loaded (%s): use 'mmfreectl set', or unload it first",
		    kmod_module_initstate_str(state));
		kmod_unref(ctx);
		return RC_FAILED;
	}
	mod = module_lookup(ctx);
	if (!mod) {
		err("mmfree is not installed for kernel %s: run make dkms-install",
		    kernel_release());
		kmod_unref(ctx);
		return RC_FAILED;
	}
	/* Options from /etc/modprobe.d come first; ours override them. */
	conf = kmod_module_get_options(mod);
	if (conf && conf_check(conf)) {
		fprintf(stderr, "  from /etc/modprobe.d: %s\n", conf);
		err("mmfree not loaded: fix /etc/modprobe.d first");
		kmod_module_unref(mod);
		kmod_unref(ctx);
		return RC_FAILED;
	}

	kmsg = kmsg_open();
	ret = kmod_module_probe_insert_module(mod, KMOD_PROBE_FAIL_ON_LOADED,
					      opts, NULL, NULL, NULL);
	switch (ret) {
	case 0:
		break;
	case -EEXIST:
		err("mmfree is already loaded");
		break;
	case -EPERM:
	case -EACCES:
		err("cannot load mmfree: %s (loading modules needs root)",
		    strerror(-ret));
		break;
	case -EINVAL:
		err("the kernel refused a parameter of mmfree: %s", strerror(-ret));
		if (conf && *conf)
			fprintf(stderr, "  from /etc/modprobe.d: %s\n", conf);
		if (*opts)
			fprintf(stderr, "  from the command line: %s\n", opts);
		if (!kmsg_show(kmsg))
			fputs("  see dmesg for the value it refused\n", stderr);
		else
			fputs("  (see dmesg)\n", stderr);
		kmsg = -1;	/* closed */
		break;
	case -ENOENT:
		err("cannot load mmfree: %s is missing (run depmod, or make dkms-install)",
		    kmod_module_get_path(mod) ?: MODNAME ".ko");
		break;
	default:
		err("cannot load mmfree (%s): %s (see dmesg)",
		    kmod_module_get_path(mod) ?: MODNAME, strerror(-ret));
		break;
	}
	if (kmsg >= 0)
		close(kmsg);
	kmod_module_unref(mod);
	kmod_unref(ctx);
	if (ret < 0)
		return RC_FAILED;

	if (sysfs_read("version", param, sizeof(param)))
		snprintf(param, sizeof(param), "?");
	printf("mmfree %s loaded%s%s\n", param, *opts ? " with " : "", opts);
	unavailable_list();
	return RC_OK;
}

static int cmd_unload(int argc, char **argv)
{
	struct kmod_module *mod;
	struct kmod_ctx *ctx;
	int ret, refcnt;

	if (argc)
		return usage_error("unload: unexpected argument '%s'", argv[0]);
	ctx = kmod_open();
	if (!ctx)
		return RC_FAILED;
	if (module_state(ctx) < 0) {
		err("mmfree is not loaded");
		kmod_unref(ctx);
		return RC_UNAVAILABLE;
	}
	ret = kmod_module_new_from_name(ctx, MODNAME, &mod);
	if (ret < 0) {
		err("libkmod: %s", strerror(-ret));
		kmod_unref(ctx);
		return RC_FAILED;
	}
	refcnt = kmod_module_get_refcnt(mod);
	if (refcnt > 0) {
		err("mmfree is in use (%d references): not unloaded", refcnt);
		ret = -EBUSY;
	} else {
		ret = kmod_module_remove_module(mod, 0);
		switch (ret) {
		case 0:
			break;
		case -EWOULDBLOCK:
		case -EBUSY:
			err("mmfree is in use: not unloaded");
			break;
		case -EPERM:
		case -EACCES:
			err("cannot unload mmfree: %s (unloading modules needs root)",
			    strerror(-ret));
			break;
		case -ENOENT:
			err("mmfree is not loaded");
			break;
		default:
			err("cannot unload mmfree: %s", strerror(-ret));
			break;
		}
	}
	kmod_module_unref(mod);
	kmod_unref(ctx);
	if (ret == -ENOENT)
		return RC_UNAVAILABLE;
	if (ret < 0)
		return RC_FAILED;
	printf("mmfree unloaded\n");
	return RC_OK;
}

/* 1.2 GiB: binary units, one decimal. */
static void human_bytes(unsigned long long bytes, char *buf, size_t size)
{
	static const char * const units[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	double v = bytes;
	size_t i = 0;

	while (v >= 1024 && i < ARRAY_SIZE(units) - 1) {
		v /= 1024;
		i++;
	}
	if (!i)
		snprintf(buf, size, "%llu B", bytes);
	else
		snprintf(buf, size, "%.1f %s", v, units[i]);
}

/*
 * 1.23 ms: decimal units, two decimals.  A value that would round to
 * 1000.00 of one unit is shown in the next.
 */
static void human_nsec(unsigned long long ns, char *buf, size_t size)
{
	static const char * const units[] = { "ns", "us", "ms", "s" };
	double v = ns;
	size_t i = 0;

	while (v >= 999.995 && i < ARRAY_SIZE(units) - 1) {
		v /= 1000;
		i++;
	}
	if (!i)
		snprintf(buf, size, "%llu ns", ns);
	else
		snprintf(buf, size, "%.2f %s", v, units[i]);
}

/* The "units" stat of a stat's directory: pages per unit -> system. */
static long long stat_units(const struct mmfree_stat_desc *s)
{
	char path[256];
	long long units;

	snprintf(path, sizeof(path), "%s/units", s->dir);
	if (sysfs_read_ll(path, &units) || units < 1)
		return -1;
	return units;
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

struct status {
	int loaded;
	char version[64];
	const char *kernel;
	char *path;		/* the installed module, or NULL */
};

/* Whether some statistic of dir counts in unit. */
static int dir_has_unit(const char *dir, enum mmfree_stat_unit unit)
{
	size_t i;

	for (i = 0; i < MMFREE_NR_STATS; i++)
		if (!strcmp(mmfree_stat_descs[i].dir, dir) &&
		    mmfree_stat_descs[i].unit == unit)
			return 1;
	return 0;
}

/* "  name  value  (what the value is in bytes or time)" */
static void status_text_stat(const struct mmfree_stat_desc *s, long long val,
			     long long units, long page_size)
{
	unsigned long long mag = val < 0 ? 0ULL - (unsigned long long)val :
					   (unsigned long long)val;
	const char *sign = val < 0 ? "-" : "";
	char human[32];

	switch (s->unit) {
	case MMFREE_STAT_PAGES:
		if (units < 1)
			break;
		human_bytes(mag * units * page_size, human, sizeof(human));
		printf("  %-29s %14lld  %lld pages, %s%s\n", s->name, val,
		       val * units, sign, human);
		return;
	case MMFREE_STAT_FREED:
		human_bytes(mag * page_size, human, sizeof(human));
		printf("  %-29s %14lld  (%s%s)\n", s->name, val, sign, human);
		return;
	case MMFREE_STAT_NSEC:
		human_nsec(mag, human, sizeof(human));
		printf("  %-29s %14lld  (%s%s)\n", s->name, val, sign, human);
		return;
	case MMFREE_STAT_COUNT:
		break;
	}
	printf("  %-29s %14lld\n", s->name, val);
}

/*
 * The statistics of the directory of stat first (those of a directory
 * are adjacent in the table); returns the first stat after them.  A
 * directory that is absent, the feature being unavailable, prints
 * nothing: unavailable_list() has said so.
 */
static size_t status_text_dir(size_t first, long page_size)
{
	const char *dir = mmfree_stat_descs[first].dir;
	char path[256];
	long long val, units;
	int ret;
	size_t i, end;

	for (end = first; end < MMFREE_NR_STATS &&
	     !strcmp(mmfree_stat_descs[end].dir, dir); end++)
		;
	if (sysfs_path(dir, path, sizeof(path)) || !is_dir(path))
		return end;

	units = stat_units(&mmfree_stat_descs[first]);
	printf("\n%-31s %14s%s\n", dir, "value",
	       dir_has_unit(dir, MMFREE_STAT_PAGES) ? "  system wide" : "");
	for (i = first; i < end; i++) {
		const struct mmfree_stat_desc *s = &mmfree_stat_descs[i];

		snprintf(path, sizeof(path), "%s/%s", dir, s->name);
		ret = sysfs_read_ll(path, &val);
		if (!ret)
			status_text_stat(s, val, units, page_size);
		else if (s->root_only && ret == -EACCES)
			printf("  %-29s %14s  (root only: read under a kernel lock)\n",
			       s->name, "-");
	}
	if (units > 0 && dir_has_unit(dir, MMFREE_STAT_PAGES))
		printf("(pages are per unit: system wide, pages x %lld units x %ld bytes)\n",
		       units, page_size);
	if (dir_has_unit(dir, MMFREE_STAT_FREED))
		printf("(bytes are pages x %ld; a huge page counts all its base pages)\n",
		       page_size);
	return end;
}

static void status_text_stats(long page_size)
{
	size_t i = 0;

	while (i < MMFREE_NR_STATS)
		i = status_text_dir(i, page_size);
}

static void status_text(const struct status *st)
{
	char val[64], def[16], range[256];
	size_t i;

	printf("mmfree:   %s\n", st->loaded ? "loaded" : "not loaded");
	if (st->loaded)
		printf("version:  %s\n", st->version);
	printf("kernel:   %s\n", st->kernel);
	if (st->path)
		printf("module:   %s\n", st->path);
	else
		printf("module:   not installed for this kernel (run make dkms-install)\n");
	if (!st->loaded)
		return;

	printf("\n%-31s %10s  %10s  %s\n", "knob", "value", "default",
	       "range");
	/* The knobs of an unavailable feature cannot be read: left out. */
	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];

		if (sysfs_read(d->path, val, sizeof(val)))
			continue;
		printf("  %-29s %10s  %10s  %s\n", d->path, val,
		       knob_format(d, d->def, def, sizeof(def)),
		       knob_range(d, range, sizeof(range)));
	}
	unavailable_list();
	status_text_stats(sysconf(_SC_PAGESIZE));
}

/* The unit of a stat's value, and the value in pages or bytes. */
static void json_stat_unit(const struct mmfree_stat_desc *s, long long v,
			   long page_size)
{
	long long units;

	switch (s->unit) {
	case MMFREE_STAT_PAGES:
		fputs("\"unit\": \"pages_per_unit\"", stdout);
		units = stat_units(s);
		if (units > 0)
			printf(", \"system_pages\": %lld, \"system_bytes\": %lld",
			       v * units, v * units * page_size);
		break;
	case MMFREE_STAT_FREED:
		printf("\"unit\": \"pages\", \"bytes\": %lld", v * page_size);
		break;
	case MMFREE_STAT_NSEC:
		fputs("\"unit\": \"ns\"", stdout);
		break;
	case MMFREE_STAT_COUNT:
		fputs("\"unit\": \"count\"", stdout);
		break;
	}
}

static void status_json(const struct status *st)
{
	char val[64], feature[64], path[256];
	long page_size = sysconf(_SC_PAGESIZE);
	const char *sep = "";
	long long v;
	size_t i;

	printf("{\n  \"loaded\": %s,\n  \"version\": ",
	       st->loaded ? "true" : "false");
	if (st->loaded)
		json_string(st->version);
	else
		fputs("null", stdout);
	fputs(",\n  \"kernel\": ", stdout);
	json_string(st->kernel);
	fputs(",\n  \"module\": ", stdout);
	if (st->path)
		json_string(st->path);
	else
		fputs("null", stdout);

	fputs(",\n  \"knobs\": {", stdout);
	for (i = 0; st->loaded && i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];
		unsigned int n;

		printf("%s\n    ", sep);
		json_string(d->path);
		/*
		 * Only what the module accepts is printed: a number, or for
		 * a knob with names the name, as a string.
		 */
		if (sysfs_read(d->path, val, sizeof(val)) ||
		    knob_parse(d, val, &n)) {
			fputs(": null", stdout);
		} else if (d->names) {
			fputs(": ", stdout);
			json_string(d->names[n]);
		} else {
			printf(": %u", n);
		}
		sep = ",";
	}
	printf("%s},\n  \"features\": {", *sep ? "\n  " : "");

	sep = "";
	for (i = 0; st->loaded && i < MMFREE_NR_KNOBS; i++) {
		if (!feature_at(i, feature, sizeof(feature)))
			continue;
		printf("%s\n    ", sep);
		json_string(feature);
		printf(": { \"available\": %s }",
		       feature_available(feature) ? "true" : "false");
		sep = ",";
	}
	printf("%s},\n  \"stats\": {", *sep ? "\n  " : "");

	sep = "";
	for (i = 0; st->loaded && i < MMFREE_NR_STATS; i++) {
		const struct mmfree_stat_desc *s = &mmfree_stat_descs[i];

		snprintf(path, sizeof(path), "%s/%s", s->dir, s->name);
		if (sysfs_read_ll(path, &v))
			continue;
		printf("%s\n    ", sep);
		json_string(path);
		printf(": { \"value\": %lld, ", v);
		json_stat_unit(s, v, page_size);
		fputs(" }", stdout);
		sep = ",";
	}
	printf("%s}\n}\n", *sep ? "\n  " : "");
}

static int cmd_status(int argc, char **argv)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	struct status st = { 0 };
	int json = 0;

	if (argc == 1 && !strcmp(argv[0], "--json"))
		json = 1;
	else if (argc)
		return usage_error("status: unexpected argument '%s'",
				   argv[0]);

	st.kernel = kernel_release();
	ctx = kmod_open();
	if (ctx)
		mod = module_lookup(ctx);
	if (mod && kmod_module_get_path(mod))
		st.path = strdup(kmod_module_get_path(mod));
	st.loaded = module_loaded();
	if (st.loaded && sysfs_read("version", st.version, sizeof(st.version)))
		snprintf(st.version, sizeof(st.version), "unknown");

	if (json)
		status_json(&st);
	else
		status_text(&st);

	free(st.path);
	if (mod)
		kmod_module_unref(mod);
	if (ctx)
		kmod_unref(ctx);
	if (fflush(stdout))
		return RC_FAILED;
	return st.loaded ? RC_OK : RC_UNAVAILABLE;
}

static int cmd_get(int argc, char **argv)
{
	const struct mmfree_knob_desc *d;
	const struct mmfree_stat_desc *s;
	char path[256], val[256];
	int ret;

	if (argc != 1)
		return usage_error("usage: mmfreectl get KEY");
	d = knob_find(argv[0]);
	s = stat_find(argv[0]);
	if (d)
		snprintf(path, sizeof(path), "%s", d->path);
	else if (s || !strcmp(argv[0], "version"))
		snprintf(path, sizeof(path), "%s", argv[0]);
	else
		return unknown_key(argv[0]);

	ret = check_available(path);
	if (ret)
		return ret;
	ret = sysfs_read(path, val, sizeof(val));
	if (ret) {
		err("cannot read %s: %s", path, strerror(-ret));
		return RC_FAILED;
	}
	printf("%s\n", val);
	return RC_OK;
}

static int knob_set(const struct mmfree_knob_desc *d, const char *value)
{
	char old[64], num[16];
	const char *buf;
	unsigned int val;
	int ret;

	if (knob_parse(d, value, &val))
		return bad_value(d, value);
	ret = check_available(d->path);
	if (ret)
		return ret;
	if (sysfs_read(d->path, old, sizeof(old)))
		snprintf(old, sizeof(old), "?");
	buf = knob_format(d, val, num, sizeof(num));
	ret = sysfs_write(d->path, buf);
	if (ret)
		return write_error(d->path, buf, ret);
	printf("%s: %s -> %s\n", d->path, old, buf);
	return RC_OK;
}

static int cmd_set(int argc, char **argv)
{
	const struct mmfree_knob_desc *d;

	if (argc != 2)
		return usage_error("usage: mmfreectl set KEY VALUE");
	d = knob_find(argv[0]);
	if (!d) {
		if (stat_find(argv[0]) || !strcmp(argv[0], "version")) {
			err("%s is read-only", argv[0]);
			return RC_USAGE;
		}
		return unknown_knob(argv[0]);
	}
	return knob_set(d, argv[1]);
}

static int cmd_switch(int argc, char **argv, const char *value)
{
	const struct mmfree_knob_desc *d;

	if (argc > 1)
		return usage_error("usage: mmfreectl enable|disable [FEATURE]");
	d = argc ? feature_switch(argv[0]) : knob_find("enabled");
	if (!d) {
		err("unknown feature '%s'", argv[0]);
		feature_list(stderr);
		return RC_USAGE;
	}
	return knob_set(d, value);
}

static int cmd_enable(int argc, char **argv)
{
	return cmd_switch(argc, argv, "1");
}

static int cmd_disable(int argc, char **argv)
{
	return cmd_switch(argc, argv, "0");
}

static int cmd_percpu(int argc, char **argv)
{
	const struct mmfree_stat_desc *s;
	long long before, after, units;
	char human[32];
	int ret;

	if (argc != 1 || strcmp(argv[0], "reclaim"))
		return usage_error("usage: mmfreectl percpu reclaim");
	ret = check_available("percpu/reclaim");
	if (ret)
		return ret;
	s = &mmfree_stat_descs[MMFREE_STAT_PERCPU_POPULATED_PAGES];
	if (sysfs_read_ll("percpu/stats/populated_pages", &before))
		before = -1;
	ret = sysfs_write("percpu/reclaim", "1");
	if (ret == -EPERM) {
		err("percpu reclaim refused: %s",
		    "the feature is off (see mmfreectl enable)");
		return RC_FAILED;
	}
	if (ret)
		return write_error("percpu/reclaim", "1", ret);
	units = stat_units(s);
	if (before < 0 || units < 1 ||
	    sysfs_read_ll("percpu/stats/populated_pages", &after)) {
		printf("percpu: reclaim done\n");
		return RC_OK;
	}
	human_bytes(before > after ? (before - after) * units *
		    sysconf(_SC_PAGESIZE) : 0, human, sizeof(human));
	printf("percpu: populated_pages %lld -> %lld per unit (%s released system wide)\n",
	       before, after, human);
	return RC_OK;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "load", cmd_load },
	{ "unload", cmd_unload },
	{ "status", cmd_status },
	{ "get", cmd_get },
	{ "set", cmd_set },
	{ "enable", cmd_enable },
	{ "disable", cmd_disable },
	{ "percpu", cmd_percpu },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return usage_error("no command given");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return RC_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("mmfreectl %s\n", MMFREE_VERSION);
		return RC_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 2, argv + 2);
	if (argv[1][0] == '-')
		return usage_error("unknown option '%s'", argv[1]);
	return usage_error("unknown command '%s'", argv[1]);
}
