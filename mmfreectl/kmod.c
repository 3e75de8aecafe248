// SPDX-License-Identifier: GPL-2.0
/*
 * libkmod, through which mmfree is found, loaded and removed as modprobe
 * does it; the running kernel; and /dev/kmsg, where the kernel says which
 * parameter it refused.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <libkmod.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "mmfreectl.h"

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

struct kmod_ctx *ctl_kmod_open(void)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);

	if (!ctx) {
		warnx("cannot initialise libkmod: %s", strerror(errno));
		return NULL;
	}
	kmod_set_log_fn(ctx, kmod_quiet, NULL);
	return ctx;
}

const char *ctl_kernel_release(void)
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
int ctl_module_state(struct kmod_ctx *ctx)
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
struct kmod_module *ctl_module_lookup(struct kmod_ctx *ctx)
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
int ctl_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * The text of one /dev/kmsg record, "prio,seq,usec,flags;text\n" and
 * " KEY=VALUE" lines; NULL if it has none.
 */
static char *kmsg_text(char *rec)
{
	char *msg = strchr(rec, ';'), *nl;

	if (!msg)
		return NULL;
	msg++;
	nl = strchr(msg, '\n');
	if (nl)
		*nl = '\0';
	return msg;
}

/*
 * Print the kernel's mmfree lines logged since ctl_kmsg_open(), and close
 * fd; how many.
 */
int ctl_kmsg_show(int fd)
{
	char rec[2048], *msg;
	int shown = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = kmsg_text(rec);
		if (msg && strstr(msg, MODNAME)) {
			fprintf(stderr, "  kernel: %s\n", msg);
			shown++;
		}
	}
	close(fd);
	return shown;
}
