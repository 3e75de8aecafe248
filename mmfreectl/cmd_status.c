// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl status [--json|--prometheus]: whether mmfree is loaded and
 * installed, its version, the kernel, and when loaded every knob with its
 * default and range, and every statistic with what it is in bytes or
 * time; as text (text.c), JSON (json.c) or Prometheus's text format
 * (prom.c).
 */
#include <libkmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmfreectl.h"

int ctl_cmd_status(int argc, char **argv)
{
	struct kmod_module *mod = NULL;
	struct ctl_status st = { 0 };
	struct kmod_ctx *ctx;
	void (*show)(const struct ctl_status *st) = ctl_status_text;

	if (argc == 1 && !strcmp(argv[0], "--json"))
		show = ctl_status_json;
	else if (argc == 1 && !strcmp(argv[0], "--prometheus"))
		show = ctl_status_prometheus;
	else if (argc)
		return ctl_usage_error("status: unexpected argument '%s'",
				       argv[0]);

	st.kernel = ctl_kernel_release();
	ctx = ctl_kmod_open();
	if (ctx)
		mod = ctl_module_lookup(ctx);
	if (mod && kmod_module_get_path(mod))
		st.path = strdup(kmod_module_get_path(mod));
	st.loaded = ctl_module_loaded();
	if (st.loaded &&
	    ctl_sysfs_read("version", st.version, sizeof(st.version)))
		snprintf(st.version, sizeof(st.version), "unknown");

	show(&st);

	free(st.path);
	if (mod)
		kmod_module_unref(mod);
	if (ctx)
		kmod_unref(ctx);
	if (fflush(stdout))
		return RC_FAILED;
	return st.loaded ? RC_OK : RC_UNAVAILABLE;
}
