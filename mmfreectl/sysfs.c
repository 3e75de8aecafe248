// SPDX-License-Identifier: GPL-2.0
/*
 * The module's files under MMFREE_SYSFS_DIR, named relative to it: one
 * value each, read and written whole.
 *
 * For tests, MMFREECTL_SYSFS names a directory that stands for /sys:
 * the module's files are read from $MMFREECTL_SYSFS/kernel/mmfree/.
 * main() refuses the commands that change anything while it is set, so
 * that it only ever redirects reads of what the caller could read anyway.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mmfreectl.h"

/* MMFREE_SYSFS_DIR is under the sysfs mount point, /sys. */
#define SYSFS_MOUNT "/sys"

/*
 * $MMFREECTL_SYSFS, or NULL when unset or empty.  secure_getenv(): never
 * for a set-user-ID or set-group-ID program.
 */
const char *ctl_sysfs_root(void)
{
	const char *root = secure_getenv("MMFREECTL_SYSFS");

	return root && *root ? root : NULL;
}

/*
 * The path of rel, a file or directory relative to MMFREE_SYSFS_DIR ("":
 * the directory itself), in buf: 0, or -ENAMETOOLONG if it does not fit.
 */
int ctl_sysfs_path(const char *rel, char *buf, size_t size)
{
	const char *root = ctl_sysfs_root();
	int len;

	if (root)
		len = snprintf(buf, size, "%s%s%s%s", root,
			       &MMFREE_SYSFS_DIR[sizeof(SYSFS_MOUNT) - 1],
			       *rel ? "/" : "", rel);
	else
		len = snprintf(buf, size, "%s%s%s", MMFREE_SYSFS_DIR,
			       *rel ? "/" : "", rel);
	return len < 0 || len >= (int)size ? -ENAMETOOLONG : 0;
}

int ctl_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int ctl_module_loaded(void)
{
	char path[PATH_MAX];

	return !ctl_sysfs_path("", path, sizeof(path)) && ctl_is_dir(path);
}

/* Read one value (the trailing newline dropped); 0 or -errno. */
int ctl_sysfs_read(const char *rel, char *buf, size_t size)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, ret;

	ret = ctl_sysfs_path(rel, path, sizeof(path));
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

/*
 * Write the whole string in one write(2), as sysfs takes a value whole;
 * 0 or -errno.
 */
int ctl_sysfs_write(const char *rel, const char *val)
{
	size_t len = strlen(val);
	char path[PATH_MAX];
	ssize_t n;
	int fd, ret;

	ret = ctl_sysfs_path(rel, path, sizeof(path));
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

int ctl_sysfs_read_ll(const char *rel, long long *val)
{
	char buf[64], *end;
	int ret;

	ret = ctl_sysfs_read(rel, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	*val = strtoll(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

/* Why writing val to what failed with ret: RC_FAILED. */
int ctl_write_error(const char *what, const char *val, int ret)
{
	if (ret == -EACCES || ret == -EPERM)
		warnx("cannot write %s: %s (are you root?)", what,
		      strerror(-ret));
	else
		warnx("the kernel rejected %s for %s: %s", val, what,
		      strerror(-ret));
	return RC_FAILED;
}
