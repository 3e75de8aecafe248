// SPDX-License-Identifier: GPL-2.0
/*
 * Reading struct layouts from the running kernel's BTF.
 *
 * The raw BTF blob lies between __start_BTF and __stop_BTF; the kernel's
 * own BTF helpers are sealed under IBT (never called indirectly), so the
 * blob is walked here.  Only what mmfree needs: find a struct by name and
 * a member's byte offset and size.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/btf.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mmfree.h"

/*
 * The kind and vlen fields of btf_type.info, as wide as BTF's format has
 * them since 7.0 (7 and 24 bits); older kernels' headers mask 5 and 16
 * bits, and their BTF leaves the extra bits zero.
 */
#define MMFREE_BTF_KIND(info)	(((info) >> 24) & 0x7f)
#define MMFREE_BTF_VLEN(info)	((info) & 0xffffff)

struct mmfree_btf {
	const struct btf_header *hdr;
	const char *types;	/* type section */
	const char *strs;	/* string section */
	u32 nr_types;
	const struct btf_type **by_id;
};

static struct mmfree_btf mmfree_btf;

/* Bytes of kind-specific data that follow a struct btf_type. */
static int mmfree_btf_extra(const struct btf_type *t)
{
	/* 16 bits in the kernel's own header, 24 in BTF's format since 7.0. */
	u32 vlen = MMFREE_BTF_VLEN(t->info);

	switch (MMFREE_BTF_KIND(t->info)) {
	case BTF_KIND_INT:
		return sizeof(u32);
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:
		return sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG:
		return sizeof(struct btf_decl_tag);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	}
	return -EINVAL;
}

/**
 * mmfree_btf_init - index the kernel's BTF blob
 * @start: __start_BTF
 * @end: __stop_BTF
 *
 * Return: 0 or a negative errno after one dmesg line saying why.
 */
int mmfree_btf_init(const void *start, const void *end)
{
	const struct btf_header *hdr = start;
	const char *p, *types_end;
	u32 id, n = 0;

	size_t size = end - start;

	/* u64 sums: the header's u32 fields cannot overflow them. */
	if (end < start || size < sizeof(*hdr) || hdr->magic != BTF_MAGIC ||
	    hdr->hdr_len < sizeof(*hdr) ||
	    (u64)hdr->hdr_len + hdr->str_off + hdr->str_len > size ||
	    (u64)hdr->hdr_len + hdr->type_off + hdr->type_len > size) {
		pr_warn("kernel BTF not readable\n");
		return -EINVAL;
	}
	mmfree_btf.hdr = hdr;
	mmfree_btf.types = (const char *)start + hdr->hdr_len + hdr->type_off;
	mmfree_btf.strs = (const char *)start + hdr->hdr_len + hdr->str_off;
	types_end = mmfree_btf.types + hdr->type_len;

	/* Two passes: count, then index (type ids start at 1). */
	for (p = mmfree_btf.types; p < types_end; n++) {
		int extra;

		if (types_end - p < sizeof(struct btf_type)) {
			pr_warn("kernel BTF type section truncated\n");
			return -EINVAL;
		}
		extra = mmfree_btf_extra((const struct btf_type *)p);
		if (extra < 0) {
			pr_warn("kernel BTF has an unknown type kind\n");
			return -EINVAL;
		}
		if (types_end - p < sizeof(struct btf_type) + extra) {
			pr_warn("kernel BTF type section truncated\n");
			return -EINVAL;
		}
		p += sizeof(struct btf_type) + extra;
	}
	mmfree_btf.by_id = kvcalloc(n + 1, sizeof(*mmfree_btf.by_id),
				    GFP_KERNEL);
	if (!mmfree_btf.by_id)
		return -ENOMEM;
	for (p = mmfree_btf.types, id = 1; id <= n; id++) {
		const struct btf_type *t = (const struct btf_type *)p;

		mmfree_btf.by_id[id] = t;
		p += sizeof(*t) + mmfree_btf_extra(t);
	}
	mmfree_btf.nr_types = n;
	return 0;
}

void mmfree_btf_exit(void)
{
	kvfree(mmfree_btf.by_id);
	mmfree_btf.by_id = NULL;
}

static const char *mmfree_btf_name(u32 off)
{
	if (off >= mmfree_btf.hdr->str_len)
		return "";
	return mmfree_btf.strs + off;
}

const struct btf_type *mmfree_btf_struct(const char *name)
{
	u32 id;

	for (id = 1; id <= mmfree_btf.nr_types; id++) {
		const struct btf_type *t = mmfree_btf.by_id[id];

		if (MMFREE_BTF_KIND(t->info) == BTF_KIND_STRUCT &&
		    !strcmp(mmfree_btf_name(t->name_off), name))
			return t;
	}
	return NULL;
}

/* Size in bytes of type @id, through typedefs and qualifiers. */
static int mmfree_btf_size(u32 id)
{
	while (id && id <= mmfree_btf.nr_types) {
		const struct btf_type *t = mmfree_btf.by_id[id];

		switch (MMFREE_BTF_KIND(t->info)) {
		case BTF_KIND_INT:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
			return t->size;
		case BTF_KIND_PTR:
			return sizeof(void *);
		case BTF_KIND_ARRAY:
			return 0;	/* flexible arrays: callers check 0 */
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		default:
			return -EINVAL;
		}
	}
	return -EINVAL;
}

/**
 * mmfree_btf_member - find a member of a struct
 * @t: the struct, from mmfree_btf_struct()
 * @name: the member's name
 * @size: the member's expected size in bytes
 *
 * Return: the member's byte offset, or -ENOENT when it is missing, is a
 * bitfield or has another size.
 */
int mmfree_btf_member(const struct btf_type *t, const char *name, int size)
{
	const struct btf_member *m = btf_members(t);
	u32 i;

	for (i = 0; i < MMFREE_BTF_VLEN(t->info); i++, m++) {
		u32 bits = __btf_member_bit_offset(t, m);

		if (strcmp(mmfree_btf_name(m->name_off), name))
			continue;
		if (bits % 8 || __btf_member_bitfield_size(t, m))
			return -ENOENT;
		if (mmfree_btf_size(m->type) != size)
			return -ENOENT;
		return bits / 8;
	}
	return -ENOENT;
}
