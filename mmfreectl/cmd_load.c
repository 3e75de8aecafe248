// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl load [KEY=VALUE ...]: load mmfree with the options of
 * /etc/modprobe.d and the command line's after them, every value checked
 * before the kernel sees it.
 */
#include <err.h>
#include <errno.h>
#include <libkmod.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mmfreectl.h"

/*
 * Why the kernel refused a parameter: it says which only in its log, so
 * its mmfree lines since kmsg are shown with the options given.  Closes
 * kmsg.
 */
static void load_refused(const char *conf, const char *opts, int kmsg)
{
	warnx("the kernel refused a parameter of mmfree: %s", strerror(EINVAL));
	if (conf && *conf)
		fprintf(stderr, "  from /etc/modprobe.d: %s\n", conf);
	if (*opts)
		fprintf(stderr, "  from the command line: %s\n", opts);
	if (!ctl_kmsg_show(kmsg))
		fputs("  see dmesg for the value it refused\n", stderr);
	else
		fputs("  (see dmesg)\n", stderr);
}

/* Insert mod with opts: 0, or -errno after saying why not. */
static int load_insert(struct kmod_module *mod, const char *conf,
		       const char *opts)
{
	int kmsg = ctl_kmsg_open(), ret;

	ret = kmod_module_probe_insert_module(mod, KMOD_PROBE_FAIL_ON_LOADED,
					      opts, NULL, NULL, NULL);
	switch (ret) {
	case 0:
		break;
	case -EEXIST:
		warnx("mmfree is already loaded");
		break;
	case -EPERM:
	case -EACCES:
		warnx("cannot load mmfree: %s (loading modules needs root)",
		      strerror(-ret));
		break;
	case -EINVAL:
		load_refused(conf, opts, kmsg);
		return ret;
	case -ENOENT:
		warnx("cannot load mmfree: %s is missing (run depmod, or make dkms-install)",
		      kmod_module_get_path(mod) ?: MODNAME ".ko");
		break;
	default:
		warnx("cannot load mmfree (%s): %s (see dmesg)",
		      kmod_module_get_path(mod) ?: MODNAME, strerror(-ret));
		break;
	}
	if (kmsg >= 0)
		close(kmsg);
	return ret;
}

/*
 * The installed module, unless it is loaded already, missing, or its
 * /etc/modprobe.d options are bad; NULL after saying why.
 */
static struct kmod_module *load_module(struct kmod_ctx *ctx)
{
	struct kmod_module *mod;
	const char *conf;
	int state;

	state = ctl_module_state(ctx);
	if (state >= 0) {
		warnx("mmfree is already loaded (%s): use 'mmfreectl set', or unload it first",
		      kmod_module_initstate_str(state));
		return NULL;
	}
	mod = ctl_module_lookup(ctx);
	if (!mod) {
		warnx("mmfree is not installed for kernel %s (" INSTALL_HINT ")",
		      ctl_kernel_release());
		return NULL;
	}
	/* Options from /etc/modprobe.d come first; ours override them. */
	conf = kmod_module_get_options(mod);
	if (conf && ctl_conf_check(conf)) {
		fprintf(stderr, "  from /etc/modprobe.d: %s\n", conf);
		warnx("mmfree not loaded: fix /etc/modprobe.d first");
		kmod_module_unref(mod);
		return NULL;
	}
	return mod;
}

int ctl_cmd_load(int argc, char **argv)
{
	char opts[1024], version[128];
	struct kmod_module *mod;
	struct kmod_ctx *ctx;
	int ret;

	ret = ctl_load_opts(argc, argv, opts, sizeof(opts));
	if (ret)
		return ret;

	ctx = ctl_kmod_open();
	if (!ctx)
		return RC_FAILED;
	mod = load_module(ctx);
	if (!mod) {
		kmod_unref(ctx);
		return RC_FAILED;
	}
	ret = load_insert(mod, kmod_module_get_options(mod), opts);
	kmod_module_unref(mod);
	kmod_unref(ctx);
	if (ret < 0)
		return RC_FAILED;

	if (ctl_sysfs_read("version", version, sizeof(version)))
		snprintf(version, sizeof(version), "?");
	printf("mmfree %s loaded%s%s\n", version, *opts ? " with " : "", opts);
	ctl_unavailable_list();
	return RC_OK;
}
