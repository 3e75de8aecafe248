// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl unload: remove mmfree, as modprobe -r does, unless something
 * holds a reference to it.
 */
#include <err.h>
#include <errno.h>
#include <libkmod.h>
#include <stdio.h>
#include <string.h>

#include "mmfreectl.h"

/* Remove mod: 0, or -errno after saying why not. */
static int unload_remove(struct kmod_module *mod)
{
	int refcnt = kmod_module_get_refcnt(mod), ret;

	if (refcnt > 0) {
		warnx("mmfree is in use (%d references): not unloaded", refcnt);
		return -EBUSY;
	}
	ret = kmod_module_remove_module(mod, 0);
	switch (ret) {
	case 0:
		break;
	case -EWOULDBLOCK:
	case -EBUSY:
		warnx("mmfree is in use: not unloaded");
		break;
	case -EPERM:
	case -EACCES:
		warnx("cannot unload mmfree: %s (unloading modules needs root)",
		      strerror(-ret));
		break;
	case -ENOENT:
		warnx("mmfree is not loaded");
		break;
	default:
		warnx("cannot unload mmfree: %s", strerror(-ret));
		break;
	}
	return ret;
}

int ctl_cmd_unload(int argc, char **argv)
{
	struct kmod_module *mod;
	struct kmod_ctx *ctx;
	int ret;

	if (argc)
		return ctl_usage_error("unload: unexpected argument '%s'",
				       argv[0]);
	ctx = ctl_kmod_open();
	if (!ctx)
		return RC_FAILED;
	if (ctl_module_state(ctx) < 0) {
		warnx("mmfree is not loaded");
		kmod_unref(ctx);
		return RC_UNAVAILABLE;
	}
	ret = kmod_module_new_from_name(ctx, MODNAME, &mod);
	if (ret < 0) {
		warnx("libkmod: %s", strerror(-ret));
		kmod_unref(ctx);
		return RC_FAILED;
	}
	ret = unload_remove(mod);
	kmod_module_unref(mod);
	kmod_unref(ctx);
	if (ret == -ENOENT)
		return RC_UNAVAILABLE;
	if (ret < 0)
		return RC_FAILED;
	printf("mmfree unloaded\n");
	return RC_OK;
}
