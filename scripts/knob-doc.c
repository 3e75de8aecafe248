// SPDX-License-Identifier: GPL-2.0
/*
 * knob-doc: the knobs' documentation, printed from their one declaration
 * (include/mmfree/knobs.h), in the form each document wants it:
 *
 *   knob-doc readme     the README's table rows (markdown)
 *   knob-doc man        mmfreectl(8)'s knob entries (roff)
 *   knob-doc modprobe   /etc/modprobe.d/mmfree.conf's options, commented out
 *
 * scripts/knob-doc.sh builds it and puts its output into those files.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define MMFREE_KNOB_TABLE
#include <mmfree/knobs.h>

/* The load-time parameters that are no knob. */
struct param {
	const char *name;
	unsigned int def, min, max;
	const char *help;
};

#define PARAM(name, d, lo, hi, h)	{ #name, d, lo, hi, h },
static const struct param params[] = { MMFREE_LOAD_PARAMS(PARAM) };

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* roff: a backslash and a minus sign escaped (no line starts with a dot). */
static void roff(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void readme(void)
{
	size_t i;

	puts("| knob | default | range | meaning |");
	puts("|---|---|---|---|");
	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];

		if (d->names)
			printf("| `%s` | `%s` | `%s`, `%s` | ", d->path,
			       d->names[d->def], d->names[0], d->names[1]);
		else
			printf("| `%s` | %u | %s%u-%u | ", d->path, d->def,
			       d->off ? "0 (off), " : "", d->min, d->max);
		printf("%s |\n", d->help);
	}
}

static void man(void)
{
	size_t i;

	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];
		char help[512];

		printf(".TP\n.B %s\n", d->path);
		snprintf(help, sizeof(help), "%c%s.", toupper((unsigned char)d->help[0]),
			 d->help + 1);
		roff(help);
		putchar('\n');
		if (d->names)
			printf("Default\n.BR %s ,\nnames\n.B %s\nand\n.BR %s .\n",
			       d->names[d->def], d->names[0], d->names[1]);
		else
			printf("Default %u, range %s%u\\-%u.\n", d->def,
			       d->off ? "0 (off) or " : "", d->min, d->max);
	}
}

static void option(const char *name, const char *help, const char *range,
		   const char *def)
{
	static const char *sep = "";
	char line[600];
	const char *p;
	int col = 0;

	fputs(sep, stdout);
	sep = "\n";
	/* The help as comment lines of at most 72 columns. */
	snprintf(line, sizeof(line), "%c%s (%s).",
		 toupper((unsigned char)help[0]), help + 1, range);
	fputs("#", stdout);
	for (p = line; *p; ) {
		size_t w = strcspn(p, " ");

		if (col && col + 1 + w > 72) {
			fputs("\n#", stdout);
			col = 0;
		}
		printf(" %.*s", (int)w, p);
		col += 1 + w;
		p += w;
		p += strspn(p, " ");
	}
	printf("\n#options mmfree %s=%s\n", name, def);
}

static void modprobe(void)
{
	char param[64], range[64], def[32];
	size_t i;

	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];
		char *c;

		snprintf(param, sizeof(param), "%s", d->path);
		for (c = param; *c; c++)
			if (*c == '/')
				*c = '_';
		if (d->names) {
			snprintf(range, sizeof(range), "%s or %s",
				 d->names[0], d->names[1]);
			snprintf(def, sizeof(def), "%s", d->names[d->def]);
		} else {
			snprintf(range, sizeof(range), "%s%u-%u",
				 d->off ? "0 or " : "", d->min, d->max);
			snprintf(def, sizeof(def), "%u", d->def);
		}
		option(param, d->help, range, def);
	}
	for (i = 0; i < ARRAY_SIZE(params); i++) {
		snprintf(range, sizeof(range), "%u-%u", params[i].min,
			 params[i].max);
		snprintf(def, sizeof(def), "%u", params[i].def);
		option(params[i].name, params[i].help, range, def);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: knob-doc readme|man|modprobe\n", stderr);
		return 2;
	}
	if (!strcmp(argv[1], "readme"))
		readme();
	else if (!strcmp(argv[1], "man"))
		man();
	else if (!strcmp(argv[1], "modprobe"))
		modprobe();
	else
		return main(0, argv);
	return 0;
}
