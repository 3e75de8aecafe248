// SPDX-License-Identifier: GPL-2.0
/*
 * UTF-8 as RFC 3629 defines it, for the strings status passes on from
 * sysfs, uname(2) and the file system (the version, the kernel release,
 * the module's path), which may hold any byte: JSON (RFC 8259) and
 * Prometheus's text format take valid UTF-8 only.
 */
#include <stddef.h>

#include "mmfreectl.h"

/*
 * The code point of the UTF-8 sequence s starts with, its length in *len;
 * or -1 for an invalid one (an overlong form, a surrogate, above
 * U+10FFFF, truncated, or no lead byte), *len then the bytes one U+FFFD
 * stands for: the longest start of a valid sequence, or else one byte,
 * as Unicode advises ("maximal subparts", chapter 3.9) and WHATWG's
 * decoder does.  Reads no further than a NUL.
 */
long ctl_utf8_next(const char *s, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t i, need;
	long cp;

	*len = 1;
	if (p[0] < 0x80)
		return p[0];
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		need = 1;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		need = 2;
		cp = p[0] & 0x0f;
		if (p[0] == 0xe0)		/* overlong below U+0800 */
			lo = 0xa0;
		else if (p[0] == 0xed)		/* surrogates */
			hi = 0x9f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		need = 3;
		cp = p[0] & 0x07;
		if (p[0] == 0xf0)		/* overlong below U+10000 */
			lo = 0x90;
		else if (p[0] == 0xf4)		/* above U+10FFFF */
			hi = 0x8f;
	} else {
		return -1;
	}
	for (i = 1; i <= need; i++) {
		if (p[i] < lo || p[i] > hi) {
			*len = i;
			return -1;
		}
		cp = cp << 6 | (p[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*len = need + 1;
	return cp;
}

/* Whether cp is a control character (C0, DEL, C1), or -1: invalid. */
int ctl_utf8_control(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}
