// SPDX-License-Identifier: GPL-2.0
/*
 * The features: each a directory of knobs and stats with a switch, its
 * "enabled" knob ("percpu", "pagefree").  A feature the running kernel
 * cannot run has no directory: the module loads without it and says why
 * in dmesg.
 */
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "mmfreectl.h"

/* The switch of a feature, "percpu/enabled" for "percpu"; or NULL. */
const struct mmfree_knob_desc *ctl_feature_switch(const char *feature)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/enabled", feature);
	if (strchr(feature, '/') || strchr(feature, '_'))
		return NULL;
	return ctl_knob_find(path);
}

/* The feature a knob or stat path belongs to, in buf; 0 if none. */
int ctl_feature_of(const char *path, char *buf, size_t size)
{
	const char *slash = strchr(path, '/');

	if (!slash)
		return 0;
	snprintf(buf, size, "%.*s", (int)(slash - path), path);
	return 1;
}

/* Whether knob i is the switch of a feature, and if so its name. */
int ctl_feature_at(size_t i, char *buf, size_t size)
{
	const char *path = mmfree_knob_descs[i].path;

	return ctl_feature_of(path, buf, size) &&
	       !strcmp(path + strlen(buf), "/enabled");
}

void ctl_feature_list(FILE *f)
{
	char feature[64];
	size_t i;

	fputs("features:", f);
	for (i = 0; i < MMFREE_NR_KNOBS; i++)
		if (ctl_feature_at(i, feature, sizeof(feature)))
			fprintf(f, " %s", feature);
	fputc('\n', f);
}

int ctl_feature_available(const char *feature)
{
	char dir[PATH_MAX];

	return !ctl_sysfs_path(feature, dir, sizeof(dir)) && ctl_is_dir(dir);
}

/* One line for each feature the loaded module left out. */
void ctl_unavailable_list(void)
{
	char feature[64];
	size_t i;

	for (i = 0; i < MMFREE_NR_KNOBS; i++)
		if (ctl_feature_at(i, feature, sizeof(feature)) &&
		    !ctl_feature_available(feature))
			printf("%s: unavailable (see dmesg)\n", feature);
}

/*
 * Whether the file at path (a knob or stat path) can be reached: the
 * module must be loaded and the feature, if any, available.  Prints why
 * not and returns RC_UNAVAILABLE.
 */
int ctl_check_available(const char *path)
{
	char feature[64];

	if (!ctl_module_loaded()) {
		warnx("mmfree is not loaded (load it with: mmfreectl load)");
		return RC_UNAVAILABLE;
	}
	if (ctl_feature_of(path, feature, sizeof(feature)) &&
	    !ctl_feature_available(feature)) {
		warnx("%s: unavailable (see dmesg)", feature);
		return RC_UNAVAILABLE;
	}
	return RC_OK;
}
