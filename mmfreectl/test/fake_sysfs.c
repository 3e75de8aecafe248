// SPDX-License-Identifier: GPL-2.0
/*
 * A fake sysfs in a temporary directory, which mmfreectl reads through
 * MMFREECTL_SYSFS: the module's files are written under its
 * kernel/mmfree/, as they are under /sys/kernel/mmfree/.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mmfreectl.h"
#include "test.h"

static char fake_root[256];

static void fake_die(const char *what, const char *path)
{
	fprintf(stderr, "mmfreectl-test: %s %s: ", what, path);
	perror(NULL);
	exit(2);
}

/* Every directory above path. */
static void fake_mkdirs(char *path)
{
	char *p;

	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) && access(path, F_OK))
			fake_die("mkdir", path);
		*p = '/';
	}
}

const char *fake_sysfs_begin(void)
{
	int len = snprintf(fake_root, sizeof(fake_root),
			   "%s/mmfreectl-test.XXXXXX", getenv("TMPDIR") ?: "/tmp");

	if (len >= (int)sizeof(fake_root)) {
		errno = ENAMETOOLONG;
		fake_die("TMPDIR", fake_root);
	}
	if (!mkdtemp(fake_root))
		fake_die("mkdtemp", fake_root);
	setenv("MMFREECTL_SYSFS", fake_root, 1);
	return fake_root;
}

void fake_sysfs_file(const char *rel, const char *content)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/kernel/mmfree/%s", fake_root, rel);
	fake_mkdirs(path);
	f = fopen(path, "w");
	if (!f || fputs(content, f) == EOF || fclose(f))
		fake_die("writing", path);
}

void fake_sysfs_dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/kernel/mmfree/%s/", fake_root, rel);
	fake_mkdirs(path);
}

static int fake_rm(const char *path, const struct stat *st, int flag,
		   struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void fake_sysfs_end(void)
{
	if (nftw(fake_root, fake_rm, 16, FTW_DEPTH | FTW_PHYS))
		fake_die("removing", fake_root);
	unsetenv("MMFREECTL_SYSFS");
}
