/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmfreectl's unit tests: a KTAP harness (ktap.c), the suites (test_*.c),
 * and the kernel's own next_arg() to hold the option lexer to (next_arg.c).
 */
#ifndef _MMFREECTL_TEST_H
#define _MMFREECTL_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include "mmfreectl.h"

/* What ctl_knob_list() prints: every knob, in the table's order. */
#define KNOBS "knobs: enabled percpu/enabled percpu/min_empty_pages " \
	"percpu/keep_empty_pages percpu/interval_ms pagefree/enabled " \
	"pagefree/mode pagefree/workers pagefree/batch_pages " \
	"pagefree/min_pages pagefree/idle_only pagefree/max_inflight_pages\n"

/* One result, "ok N name" or "not ok N name"; returns ok. */
__printf(2, 3) bool ktap_result(bool ok, const char *fmt, ...);
/* A "# " diagnostic line, before the result it explains. */
__printf(1, 2) void ktap_diag(const char *fmt, ...);

/* Compare strings: a result, with both values as diagnostics if unequal. */
__printf(3, 4) bool ktap_streq(const char *got, const char *want,
			       const char *fmt, ...);

/* What the code under test writes to stderr in between, in buf. */
void capture_stderr_begin(void);
void capture_stderr_end(char *buf, size_t size);

/* What the code under test writes to stdout in between, in buf. */
void capture_stdout_begin(void);
void capture_stdout_end(char *buf, size_t size);

/* A string with its control and non-ASCII bytes escaped, for messages. */
const char *quote(const char *s, char *buf, size_t size);

/*
 * A fake sysfs (fake_sysfs.c): a temporary directory that MMFREECTL_SYSFS
 * names, its path returned; files and directories made under its
 * kernel/mmfree/ by their path relative to it; removed, and the variable
 * unset, at the end.
 */
const char *fake_sysfs_begin(void);
void fake_sysfs_file(const char *rel, const char *content);
void fake_sysfs_dir(const char *rel);
void fake_sysfs_end(void);

char *kernel_next_arg(char *args, char **param, char **val);
char *kernel_skip_spaces(const char *str);

/*
 * The suites: test_modopt.c, test_knob.c, test_format.c for test_json()
 * and test_format(), test_sysfs.c, test_output.c.
 */
void test_modopt(void);
void test_knob(void);
void test_sysfs(void);
void test_output(void);
void test_json(void);
void test_format(void);

#endif /* _MMFREECTL_TEST_H */
