// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl wait [--timeout SECONDS]: return once mmfree's pool holds no
 * page, none queued and none being freed: pagefree/stats/inflight_pages
 * reads 0.  The module calls sysfs_notify() on that file whenever its
 * value falls to 0, and before its files go at unload, which wakes
 * poll(2) with POLLPRI: in between, the value is not read again, and
 * nothing runs.  An unload removes the files first and drains the pool
 * after: a waiter that finds them gone waits until the module itself is
 * gone (/sys/module/mmfree), the one case where it sleeps and looks
 * again; if the file is back by then, a new instance's, it waits on that.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mmfreectl.h"

#define INFLIGHT "pagefree/stats/inflight_pages"
#define NSEC_PER_SEC 1000000000LL
/* Not an exit status: the file is back, wait on it again. */
#define WAIT_REOPEN (-1)

static long long wait_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * The value of fd, read from its start: 0, or -errno (-ENODEV: the
 * module's files were removed, -EINVAL: not a count of pages).  Reading
 * also rearms sysfs's notification for poll(2).
 */
static int wait_read(int fd, long long *val)
{
	char buf[64], *end;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	errno = 0;
	*val = strtoll(buf, &end, 10);
	if (errno || end == buf || *end || *val < 0)
		return -EINVAL;
	return 0;
}

/* --timeout SECONDS or --timeout=SECONDS: 0, or RC_USAGE after saying why. */
static int wait_args(int argc, char **argv, long long *timeout)
{
	const char *arg, *val;
	int i;

	for (i = 0; i < argc; i++) {
		arg = argv[i];
		if (!strncmp(arg, "--timeout=", 10))
			val = arg + 10;
		else if (!strcmp(arg, "--timeout") && i + 1 < argc)
			val = argv[++i];
		else if (!strcmp(arg, "--timeout"))
			return ctl_usage_error("wait: --timeout needs SECONDS");
		else
			return ctl_usage_error("wait: unexpected argument '%s'",
					       arg);
		if (*timeout >= 0)
			return ctl_usage_error("wait: --timeout given twice");
		if (ctl_parse_seconds(val, WAIT_MAX_SECONDS, timeout))
			return ctl_usage_error("invalid timeout '%s': expected 0 to %d seconds",
					       val, WAIT_MAX_SECONDS);
	}
	return 0;
}

/* Whether PATH exists. */
static int wait_exists(const char *path)
{
	return !access(path, F_OK);
}

/*
 * /sys/module/mmfree, there from a load's start to an unload's end, and
 * @file in it ("" for the directory).
 */
static void wait_module_path(char *buf, size_t size, const char *file)
{
	const char *root = ctl_sysfs_root();

	snprintf(buf, size, "%s/module/%s%s", root ? root : "/sys", MODNAME,
		 file);
}

/*
 * Whether the module is neither loading nor unloading: its initstate
 * says "live" (or cannot be read).  Its sysfs files come and go in
 * pieces meanwhile: at unload the features' directories go first.
 */
static int wait_module_live(void)
{
	char path[PATH_MAX], state[16] = "";
	FILE *f;

	wait_module_path(path, sizeof(path), "/initstate");
	f = fopen(path, "re");
	if (!f)
		return 1;
	if (!fgets(state, sizeof(state), f))
		state[0] = '\0';
	fclose(f);
	return !strcmp(state, "live\n") || !state[0];
}

/* Loaded, settled, and without pagefree: nothing can be in flight. */
static int wait_no_pagefree(void)
{
	return ctl_module_loaded() && !ctl_feature_available("pagefree") &&
	       wait_module_live();
}

/*
 * The file is gone, or not there yet: the module is being unloaded, which
 * drains the pool before /sys/module/mmfree goes, or loaded.  Until then, or the deadline (-1:
 * none); WAIT_REOPEN if the file is back meanwhile, a new instance's
 * (the old one is gone), whose count is still to be read.
 */
static int wait_unloaded(long long deadline)
{
	char module[PATH_MAX], file[PATH_MAX];

	wait_module_path(module, sizeof(module), "");
	if (ctl_sysfs_path(INFLIGHT, file, sizeof(file)))
		return RC_FAILED;
	while (wait_exists(module) && !wait_exists(file)) {
		/* Loaded again meanwhile, pagefree unavailable. */
		if (wait_no_pagefree()) {
			warnx("pagefree: unavailable: no page in flight");
			return RC_OK;
		}
		if (deadline >= 0 && wait_now() >= deadline) {
			warnx("timed out: mmfree is still being loaded or unloaded");
			return RC_TIMEOUT;
		}
		usleep(20000);
	}
	if (wait_exists(module))
		return WAIT_REOPEN;
	warnx("mmfree was unloaded, its pool drained: no page in flight");
	return RC_OK;
}

/* Wait on fd until it reads 0, or until the deadline (-1: none). */
static int wait_inflight(int fd, long long deadline)
{
	long long val = 0, left;
	struct pollfd pfd = { .fd = fd, .events = POLLPRI | POLLERR };
	struct timespec ts;
	int ret;

	for (;;) {
		ret = wait_read(fd, &val);
		if (ret == -ENODEV || ret == -ENOENT)
			return wait_unloaded(deadline);
		if (ret) {
			warnx("cannot read %s: %s", INFLIGHT,
			      ret == -EINVAL ? "not a count of pages" :
			      strerror(-ret));
			return RC_FAILED;
		}
		if (!val)
			return RC_OK;
		if (deadline >= 0) {
			left = deadline - wait_now();
			if (left <= 0) {
				warnx("timed out: %lld pages still in flight",
				      val);
				return RC_TIMEOUT;
			}
			ts.tv_sec = left / NSEC_PER_SEC;
			ts.tv_nsec = left % NSEC_PER_SEC;
		}
		if (ppoll(&pfd, 1, deadline >= 0 ? &ts : NULL, NULL) < 0 &&
		    errno != EINTR) {
			warnx("poll %s: %s", INFLIGHT, strerror(errno));
			return RC_FAILED;
		}
	}
}

int ctl_cmd_wait(int argc, char **argv)
{
	long long timeout = -1, deadline;
	char path[PATH_MAX];
	int fd, ret;

	ret = wait_args(argc, argv, &timeout);
	if (ret)
		return ret;
	/*
	 * Nothing can be in flight without the module or its pool.  The
	 * module without its files is being unloaded (or loaded): below,
	 * the file is missing and the wait is for the module to go.
	 */
	wait_module_path(path, sizeof(path), "");
	if (!ctl_module_loaded() && !wait_exists(path)) {
		warnx("mmfree is not loaded: no page in flight");
		return RC_OK;
	}
	if (wait_no_pagefree()) {
		warnx("pagefree: unavailable: no page in flight");
		return RC_OK;
	}
	deadline = timeout >= 0 ? wait_now() + timeout : -1;
	do {
		ret = ctl_sysfs_path(INFLIGHT, path, sizeof(path));
		fd = ret ? ret : open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && !ret)
			ret = -errno;
		if (!ret) {
			ret = wait_inflight(fd, deadline);
			close(fd);
		} else if (ret == -ENOENT || ret == -ENODEV) {
			/* Gone since: being unloaded. */
			ret = wait_unloaded(deadline);
		} else {
			warnx("cannot open %s: %s", INFLIGHT, strerror(-ret));
			ret = RC_FAILED;
		}
	} while (ret == WAIT_REOPEN);
	return ret;
}
