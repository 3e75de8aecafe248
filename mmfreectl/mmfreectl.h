/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmfreectl: what its files share.  Every function one file exports to
 * another carries the prefix ctl_; the commands are ctl_cmd_*().
 *
 * Knob names, defaults and limits come from include/mmfree/knobs.h, the
 * statistics from include/mmfree/stats.h: the module and this tool share
 * one declaration, whose tables only table.c defines.
 */
#ifndef _MMFREECTL_H
#define _MMFREECTL_H

#include <stddef.h>
#include <stdio.h>

#include <mmfree/knobs.h>
#include <mmfree/stats.h>

#define MODNAME "mmfree"
/* What installs the module for a kernel: packages and clones alike. */
#define INSTALL_HINT \
	"install the kernel's headers: DKMS builds it; or make dkms-install in a clone"

/* Exit statuses, as documented in mmfreectl(8). */
enum {
	RC_OK = 0,		/* done */
	RC_FAILED = 1,		/* the kernel or the system refused */
	RC_USAGE = 2,		/* bad command, key or value: nothing changed */
	RC_UNAVAILABLE = 3,	/* module not loaded, or feature unavailable */
	RC_TIMEOUT = 4,		/* wait: still pages in flight at the timeout */
};

/* wait --timeout at most, in seconds: a day (the usage text spells it). */
#define WAIT_MAX_SECONDS 86400
#define CTL_STR(x) #x
#define CTL_XSTR(x) CTL_STR(x)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))

/*
 * a * b, or a - b, in *res, and whether it fits in a long long: a
 * statistic's file may hold any value, and nothing computed from it (its
 * system pages, its bytes) may overflow.
 */
static inline int ctl_mul_fits(long long a, long long b, long long *res)
{
	return !__builtin_mul_overflow(a, b, res);
}

static inline int ctl_sub_fits(long long a, long long b, long long *res)
{
	return !__builtin_sub_overflow(a, b, res);
}

struct kmod_ctx;
struct kmod_module;

/* log.c: errors go through warnx(3), as "mmfreectl: MESSAGE". */
void ctl_set_progname(void);
__printf(1, 2) int ctl_usage_error(const char *fmt, ...);

/* knob.c: the knob table. */
void ctl_knob_param(const struct mmfree_knob_desc *d, char *buf, size_t size);
const struct mmfree_knob_desc *ctl_knob_find(const char *key);
const struct mmfree_knob_desc *ctl_knob_find_param(const char *name);
void ctl_knob_list(FILE *f);
int ctl_unknown_knob(const char *key);
int ctl_knob_parse(const struct mmfree_knob_desc *d, const char *s,
		   unsigned int *val);
const char *ctl_knob_format(const struct mmfree_knob_desc *d,
			    unsigned int val, char *buf, size_t size);
const char *ctl_knob_range(const struct mmfree_knob_desc *d, char *buf,
			   size_t size);
void ctl_bad_value_msg(const struct mmfree_knob_desc *d, const char *name,
		       const char *s, const char *where);
int ctl_bad_value(const struct mmfree_knob_desc *d, const char *s);

/* feature.c: the features, each a directory with an "enabled" knob. */
const struct mmfree_knob_desc *ctl_feature_switch(const char *feature);
int ctl_feature_of(const char *path, char *buf, size_t size);
int ctl_feature_at(size_t i, char *buf, size_t size);
void ctl_feature_list(FILE *f);
int ctl_feature_available(const char *feature);
void ctl_unavailable_list(void);
int ctl_check_available(const char *path);

/* stat.c: the stat table. */
const struct mmfree_stat_desc *ctl_stat_find(const char *key);
int ctl_unknown_key(const char *key);
long long ctl_stat_units(const struct mmfree_stat_desc *s);
int ctl_dir_has_unit(const char *dir, enum mmfree_stat_unit unit);

/* sysfs.c: the files under MMFREE_SYSFS_DIR (or $MMFREECTL_SYSFS). */
const char *ctl_sysfs_root(void);
int ctl_sysfs_path(const char *rel, char *buf, size_t size);
int ctl_is_dir(const char *path);
int ctl_module_loaded(void);
int ctl_sysfs_read(const char *rel, char *buf, size_t size);
int ctl_sysfs_write(const char *rel, const char *val);
int ctl_sysfs_read_ll(const char *rel, long long *val);
int ctl_write_error(const char *what, const char *val, int ret);

/* kmod.c: libkmod, the running kernel, /dev/kmsg. */
struct kmod_ctx *ctl_kmod_open(void);
const char *ctl_kernel_release(void);
int ctl_module_state(struct kmod_ctx *ctx);
struct kmod_module *ctl_module_lookup(struct kmod_ctx *ctx);
int ctl_kmsg_open(void);
int ctl_kmsg_show(int fd);

/* modopt.c: module options, as the kernel reads them. */
char *ctl_opt_skip_blanks(char *s);
char *ctl_opt_next(char *args, char **param, char **val);
int ctl_load_opts(int argc, char **argv, char *opts, size_t size);
int ctl_conf_check(const char *conf);

/* format.c: numbers for people, and from them. */
void ctl_human_bytes(unsigned long long bytes, char *buf, size_t size);
void ctl_human_nsec(unsigned long long ns, char *buf, size_t size);
int ctl_parse_seconds(const char *s, long long max, long long *ns);

/* utf8.c: UTF-8 sequences, and the invalid ones. */
long ctl_utf8_next(const char *s, size_t *len);
int ctl_utf8_control(long cp);

/* What mmfreectl status shows, in each of its formats. */
struct ctl_status {
	int loaded;
	char version[64];
	const char *kernel;
	char *path;		/* the installed module, or NULL */
};

/* text.c: mmfreectl status, and percpu reclaim's result, for people. */
void ctl_status_text(const struct ctl_status *st);
void ctl_percpu_released(long long before, long long after, long long units,
			 long page_size);

/* json.c: JSON strings, and mmfreectl status --json. */
void ctl_json_string(FILE *f, const char *s);
void ctl_status_json(const struct ctl_status *st);

/* prom.c: mmfreectl status --prometheus. */
void ctl_status_prometheus(const struct ctl_status *st);

/* The commands, cmd_*.c: argc and argv after the command's name. */
int ctl_cmd_load(int argc, char **argv);
int ctl_cmd_unload(int argc, char **argv);
int ctl_cmd_status(int argc, char **argv);
int ctl_cmd_get(int argc, char **argv);
int ctl_cmd_set(int argc, char **argv);
int ctl_cmd_enable(int argc, char **argv);
int ctl_cmd_disable(int argc, char **argv);
int ctl_cmd_percpu(int argc, char **argv);
int ctl_cmd_wait(int argc, char **argv);

#endif /* _MMFREECTL_H */
