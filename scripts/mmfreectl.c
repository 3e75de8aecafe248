// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl: load, unload, inspect and configure the mmfree module.
 *
 * Knob names, defaults and limits come from include/mmfree/knobs.h, the
 * statistics from include/mmfree/stats.h: the module and this tool share
 * one declaration (built with -DMMFREE_KNOB_TABLE -DMMFREE_STAT_TABLE).
 * Every KEY and VALUE is checked against those limits before anything is
 * written or loaded, so that a usage error (exit status 2) changes nothing.
 * The module is loaded and removed with libkmod, as modprobe does.
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
	      "integer within the knob's range (see mmfreectl status).\n"
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
static int knob_parse(const struct mmfree_knob_desc *d, const char *s,
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

static int bad_value(const struct mmfree_knob_desc *d, const char *s)
{
	err("invalid value '%s' for %s: expected an integer from %u to %u",
	    s, d->path, d->min, d->max);
	return RC_USAGE;
}

/* A feature is a directory with an "enabled" knob: "percpu". */
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

static void feature_list(FILE *f)
{
	char feature[64];
	size_t i;

	fputs("features:", f);
	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const char *path = mmfree_knob_descs[i].path;

		if (feature_of(path, feature, sizeof(feature)) &&
		    !strcmp(path + strlen(feature), "/enabled"))
			fprintf(f, " %s", feature);
	}
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
	char feature[64], dir[256];

	if (!module_loaded()) {
		err("mmfree is not loaded (load it with: mmfreectl load)");
		return RC_UNAVAILABLE;
	}
	if (feature_of(path, feature, sizeof(feature))) {
		snprintf(dir, sizeof(dir), "%s/%s", MMFREE_SYSFS_DIR, feature);
		if (!is_dir(dir)) {
			err("%s: unavailable (see dmesg)", feature);
			return RC_UNAVAILABLE;
		}
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

static int cmd_load(int argc, char **argv)
{
	char opts[1024] = "", param[128];
	int given[MMFREE_NR_KNOBS] = { 0 };
	struct kmod_module *mod;
	struct kmod_ctx *ctx;
	const char *conf;
	size_t len = 0;
	int i, ret, kmsg, state;

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
		len += snprintf(opts + len, sizeof(opts) - len, "%s%s=%u",
				len ? " " : "", param, val);
		if (len >= sizeof(opts))
			return usage_error("load: too many options");
	}

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
	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		char feature[64], dir[256];

		if (!feature_of(mmfree_knob_descs[i].path, feature,
				sizeof(feature)))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", MMFREE_SYSFS_DIR, feature);
		if (!strcmp(mmfree_knob_descs[i].path + strlen(feature),
			    "/enabled") && !is_dir(dir))
			printf("%s: unavailable (see dmesg)\n", feature);
	}
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

static void status_text_stats(long page_size)
{
	const char *dir = NULL;
	char path[256], fdir[256], human[32];
	long long val, units = -1;
	size_t i;

	for (i = 0; i < MMFREE_NR_STATS; i++) {
		const struct mmfree_stat_desc *s = &mmfree_stat_descs[i];
		char feature[64];

		snprintf(path, sizeof(path), "%s/%s", s->dir, s->name);
		if (!dir || strcmp(dir, s->dir)) {
			dir = s->dir;
			feature_of(path, feature, sizeof(feature));
			snprintf(fdir, sizeof(fdir), "%s/%s",
				 MMFREE_SYSFS_DIR, feature);
			if (!is_dir(fdir))
				continue;
			units = stat_units(s);
			printf("\n%-27s %10s  %s\n", s->dir, "value",
			       "system wide");
		}
		if (sysfs_read_ll(path, &val))
			continue;
		if (s->unit == MMFREE_STAT_PAGES && units > 0) {
			human_bytes((unsigned long long)llabs(val) * units *
				    page_size, human, sizeof(human));
			printf("  %-25s %10lld  %lld pages, %s%s\n", s->name,
			       val, val * units, val < 0 ? "-" : "", human);
		} else {
			printf("  %-25s %10lld\n", s->name, val);
		}
	}
	if (units > 0)
		printf("(pages are per unit: system wide, pages x %lld units x %ld bytes)\n",
		       units, page_size);
}

static void status_text(const struct status *st)
{
	char val[64], feature[64], dir[256];
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

	printf("\n%-27s %10s  %7s  %s\n", "knob", "value", "default",
	       "range");
	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];

		if (sysfs_read(d->path, val, sizeof(val)))
			continue;
		printf("  %-25s %10s  %7u  %u-%u\n", d->path, val, d->def,
		       d->min, d->max);
	}
	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const char *path = mmfree_knob_descs[i].path;

		if (!feature_of(path, feature, sizeof(feature)) ||
		    strcmp(path + strlen(feature), "/enabled"))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", MMFREE_SYSFS_DIR, feature);
		if (!is_dir(dir))
			printf("%s: unavailable (see dmesg)\n", feature);
	}
	status_text_stats(sysconf(_SC_PAGESIZE));
}

static void status_json(const struct status *st)
{
	char val[64], feature[64], path[256];
	long page_size = sysconf(_SC_PAGESIZE);
	const char *sep = "";
	long long v, units;
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
		/* Only what the module accepts is printed as a number. */
		if (!sysfs_read(d->path, val, sizeof(val)) &&
		    !knob_parse(d, val, &n))
			printf(": %u", n);
		else
			fputs(": null", stdout);
		sep = ",";
	}
	printf("%s},\n  \"features\": {", *sep ? "\n  " : "");

	sep = "";
	for (i = 0; st->loaded && i < MMFREE_NR_KNOBS; i++) {
		const char *kpath = mmfree_knob_descs[i].path;

		if (!feature_of(kpath, feature, sizeof(feature)) ||
		    strcmp(kpath + strlen(feature), "/enabled"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", MMFREE_SYSFS_DIR,
			 feature);
		printf("%s\n    ", sep);
		json_string(feature);
		printf(": { \"available\": %s }",
		       is_dir(path) ? "true" : "false");
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
		printf(": { \"value\": %lld, \"unit\": \"%s\"", v,
		       s->unit == MMFREE_STAT_PAGES ? "pages_per_unit" :
		       "count");
		units = stat_units(s);
		if (s->unit == MMFREE_STAT_PAGES && units > 0)
			printf(", \"system_pages\": %lld, \"system_bytes\": %lld",
			       v * units, v * units * page_size);
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
	char old[64], buf[16];
	unsigned int val;
	int ret;

	if (knob_parse(d, value, &val))
		return bad_value(d, value);
	ret = check_available(d->path);
	if (ret)
		return ret;
	if (sysfs_read(d->path, old, sizeof(old)))
		snprintf(old, sizeof(old), "?");
	snprintf(buf, sizeof(buf), "%u", val);
	ret = sysfs_write(d->path, buf);
	if (ret)
		return write_error(d->path, buf, ret);
	printf("%s: %s -> %u\n", d->path, old, val);
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
