// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's BTF: struct layouts and function prototypes.
 *
 * The raw BTF blob lies between __start_BTF and __stop_BTF; the kernel's
 * own BTF helpers are sealed under IBT (never called indirectly), so the
 * blob is walked here.  It is indexed once at load (mmfree_btf_init()),
 * used by every feature, and dropped before the module finishes loading.
 *
 * What mmfree relies on is written as C types the way BTF spells them
 * (DWARF's names: "long unsigned int", "_Bool"; typedefs by their name;
 * "struct page *[0]" for a flexible array) and compared with what the
 * kernel's BTF shows: a field must be where BTF says with exactly the
 * type mmfree reads it as, and a function it hooks or calls must have
 * exactly the prototype its wrapper or gate has.  A mismatch keeps the
 * feature off with one dmesg line naming the field or the function.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/btf.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "mmfree.h"

/*
 * The kind and vlen fields of btf_type.info, as wide as BTF's format has
 * them since 7.0 (7 and 24 bits); older kernels' headers mask 5 and 16
 * bits, and their BTF leaves the extra bits zero.
 */
#define MMFREE_BTF_KIND(info)	(((info) >> 24) & 0x7f)
#define MMFREE_BTF_VLEN(info)	((info) & 0xffffff)

/* Longest type string mmfree compares: a prototype of a few pointers. */
#define MMFREE_BTF_STR_MAX	256

struct mmfree_btf {
	const struct btf_header *hdr;
	const char *types;	/* type section */
	const char *strs;	/* string section */
	u32 nr_types;
	const struct btf_type **by_id;
};

static struct mmfree_btf mmfree_btf;

/* Test hook: a function, or "struct.member", that BTF pretends differs. */
static char *mmfree_test_btf_mismatch;
module_param_named(test_btf_mismatch, mmfree_test_btf_mismatch, charp, 0400);
MODULE_PARM_DESC(test_btf_mismatch,
		 "testing only: treat this function or struct.member as different in BTF");

static bool mmfree_btf_test_mismatch(const char *type, const char *member)
{
	const char *t = mmfree_test_btf_mismatch;
	size_t n = strlen(type);

	if (!t)
		return false;
	if (!member)
		return !strcmp(t, type);
	return !strncmp(t, type, n) && t[n] == '.' && !strcmp(t + n + 1, member);
}

/* Bytes of kind-specific data that follow a struct btf_type. */
static int mmfree_btf_extra(const struct btf_type *t)
{
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

/*
 * The header as far as mmfree reads it: 7.x's uapi header adds a layout
 * section after str_len, which 7.2's own BTF does not have (hdr_len 24).
 */
#define MMFREE_BTF_HDR_LEN	offsetofend(struct btf_header, str_len)

/* Check the blob's header against its size; 0 or -EINVAL. */
static int mmfree_btf_header(const struct btf_header *hdr, size_t size)
{
	/* u64 sums: the header's u32 fields cannot overflow them. */
	if (size < MMFREE_BTF_HDR_LEN || hdr->magic != BTF_MAGIC ||
	    hdr->hdr_len < MMFREE_BTF_HDR_LEN ||
	    (u64)hdr->hdr_len + hdr->str_off + hdr->str_len > size ||
	    (u64)hdr->hdr_len + hdr->type_off + hdr->type_len > size)
		return -EINVAL;
	return 0;
}

/* Count the types, each checked against the section's end. */
static int mmfree_btf_count(const char *p, const char *end, u32 *n)
{
	for (*n = 0; p < end; (*n)++) {
		int extra;

		if (end - p < sizeof(struct btf_type))
			return -EINVAL;
		extra = mmfree_btf_extra((const struct btf_type *)p);
		if (extra < 0 || end - p < sizeof(struct btf_type) + extra)
			return -EINVAL;
		p += sizeof(struct btf_type) + extra;
	}
	return 0;
}

/**
 * mmfree_btf_init - index the kernel's BTF blob
 * @start: __start_BTF
 * @end: __stop_BTF
 *
 * Return: 0, -EINVAL when the blob is not BTF mmfree can read (a header
 * that does not fit, a type of an unknown kind or past the end), or
 * -ENOMEM.
 */
int mmfree_btf_init(const void *start, const void *end)
{
	const struct btf_header *hdr = start;
	const char *p;
	u32 id, n;

	if (end < start || mmfree_btf_header(hdr, end - start))
		return -EINVAL;
	mmfree_btf.hdr = hdr;
	mmfree_btf.types = (const char *)start + hdr->hdr_len + hdr->type_off;
	mmfree_btf.strs = (const char *)start + hdr->hdr_len + hdr->str_off;
	if (mmfree_btf_count(mmfree_btf.types,
			     mmfree_btf.types + hdr->type_len, &n))
		return -EINVAL;
	/* Type ids start at 1. */
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
	mmfree_btf.nr_types = 0;
}

static const char *mmfree_btf_name(u32 off)
{
	if (off >= mmfree_btf.hdr->str_len)
		return "";
	return mmfree_btf.strs + off;
}

static const struct btf_type *mmfree_btf_type(u32 id)
{
	return id && id <= mmfree_btf.nr_types ? mmfree_btf.by_id[id] : NULL;
}

/* The first type of @kind named @name, or NULL. */
static const struct btf_type *mmfree_btf_find(const char *name, u32 kind)
{
	u32 id;

	for (id = 1; id <= mmfree_btf.nr_types; id++) {
		const struct btf_type *t = mmfree_btf.by_id[id];

		if (MMFREE_BTF_KIND(t->info) == kind &&
		    !strcmp(mmfree_btf_name(t->name_off), name))
			return t;
	}
	return NULL;
}

/* A string being built in a caller's buffer; overflow marks it bad. */
struct mmfree_btf_str {
	char *buf;
	size_t size, len;
	bool bad;
};

static void mmfree_btf_put(struct mmfree_btf_str *s, const char *text)
{
	size_t n = strlen(text);

	if (s->len + n >= s->size) {
		s->bad = true;
		return;
	}
	memcpy(s->buf + s->len, text, n + 1);
	s->len += n;
}

static void mmfree_btf_put_type(struct mmfree_btf_str *s, u32 id, int depth);

/* Parameters of a FUNC_PROTO: "(int, struct page **)". */
static void mmfree_btf_put_params(struct mmfree_btf_str *s,
				  const struct btf_type *proto, int depth)
{
	const struct btf_param *p = btf_params(proto);
	u32 i, n = MMFREE_BTF_VLEN(proto->info);

	mmfree_btf_put(s, n ? "(" : "(void");
	for (i = 0; i < n; i++) {
		if (i)
			mmfree_btf_put(s, ", ");
		/* A type 0 parameter is the "..." of a variadic function. */
		if (p[i].type)
			mmfree_btf_put_type(s, p[i].type, depth + 1);
		else
			mmfree_btf_put(s, "...");
	}
	mmfree_btf_put(s, ")");
}

/*
 * Type @id as C spells it, with DWARF's names: pointers and arrays after
 * the type they are of ("struct page *[0]"), qualifiers before it.
 */
static void mmfree_btf_put_type(struct mmfree_btf_str *s, u32 id, int depth)
{
	const struct btf_type *t = mmfree_btf_type(id);
	char num[16];

	if (!id) {
		mmfree_btf_put(s, "void");
		return;
	}
	/* Bounded: a type that refers to itself is no type of ours. */
	if (!t || depth > 16) {
		s->bad = true;
		return;
	}
	switch (MMFREE_BTF_KIND(t->info)) {
	case BTF_KIND_STRUCT:
		mmfree_btf_put(s, "struct ");
		break;
	case BTF_KIND_UNION:
		mmfree_btf_put(s, "union ");
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		mmfree_btf_put(s, "enum ");
		break;
	case BTF_KIND_FWD:
		mmfree_btf_put(s, btf_type_kflag(t) ? "union " : "struct ");
		break;
	case BTF_KIND_CONST:
		mmfree_btf_put(s, "const ");
		mmfree_btf_put_type(s, t->type, depth + 1);
		return;
	case BTF_KIND_VOLATILE:
		mmfree_btf_put(s, "volatile ");
		mmfree_btf_put_type(s, t->type, depth + 1);
		return;
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		mmfree_btf_put_type(s, t->type, depth + 1);
		return;
	case BTF_KIND_PTR:
		mmfree_btf_put_type(s, t->type, depth + 1);
		mmfree_btf_put(s, s->len && s->buf[s->len - 1] == '*' ?
				  "*" : " *");
		return;
	case BTF_KIND_ARRAY:
		mmfree_btf_put_type(s, btf_array(t)->type, depth + 1);
		snprintf(num, sizeof(num), "[%u]", btf_array(t)->nelems);
		mmfree_btf_put(s, num);
		return;
	case BTF_KIND_FUNC_PROTO:
		mmfree_btf_put_type(s, t->type, depth + 1);
		mmfree_btf_put(s, " ");
		mmfree_btf_put_params(s, t, depth);
		return;
	case BTF_KIND_INT:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FLOAT:
		break;
	default:
		s->bad = true;
		return;
	}
	mmfree_btf_put(s, mmfree_btf_name(t->name_off));
}

/* @id as a string in @buf; 0, or -E2BIG/-EINVAL when it cannot be. */
static int mmfree_btf_type_str(u32 id, char *buf, size_t size)
{
	struct mmfree_btf_str s = { .buf = buf, .size = size };

	buf[0] = '\0';
	mmfree_btf_put_type(&s, id, 0);
	return s.bad ? -EINVAL : 0;
}

/**
 * mmfree_btf_func - the prototype of a kernel function, as a C type
 * @name: the function
 * @buf: where to write it: "void (struct mmu_gather *)"
 * @size: the size of @buf
 *
 * Return: 0, or -ENOENT when BTF has no such function.
 */
int mmfree_btf_func(const char *name, char *buf, size_t size)
{
	const struct btf_type *f = mmfree_btf_find(name, BTF_KIND_FUNC);

	if (!f)
		return -ENOENT;
	if (mmfree_btf_test_mismatch(name, NULL)) {
		strscpy(buf, "(test_btf_mismatch)", size);
		return 0;
	}
	return mmfree_btf_type_str(f->type, buf, size);
}

/**
 * mmfree_btf_fields - find the fields a feature reads, with their types
 * @feature: the feature's name, for the log
 * @fields: each with its struct, member and C type; on success the
 *	    member's byte offset is stored through ->offset, and a field
 *	    whose member is "" stores the struct's size
 * @nr: the number of @fields
 *
 * Return: 0, or -ENOENT after one dmesg line naming the first field that
 * is missing, a bitfield, or of another type.
 */
int mmfree_btf_fields(const char *feature, const struct mmfree_field *fields,
		      size_t nr)
{
	char got[MMFREE_BTF_STR_MAX];
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct mmfree_field *f = &fields[i];
		const struct btf_type *t = mmfree_btf_find(f->type,
							    BTF_KIND_STRUCT);
		const struct btf_member *m;
		u32 j, n;

		if (f->skip)
			continue;
		if (!t) {
			pr_warn("%s disabled: kernel BTF has no struct %s\n",
				feature, f->type);
			return -ENOENT;
		}
		if (!*f->member) {
			*f->offset = t->size;
			continue;
		}
		m = btf_members(t);
		n = MMFREE_BTF_VLEN(t->info);
		for (j = 0; j < n; j++, m++)
			if (!strcmp(mmfree_btf_name(m->name_off), f->member))
				break;
		got[0] = '\0';
		if (j < n)
			mmfree_btf_type_str(m->type, got, sizeof(got));
		if (mmfree_btf_test_mismatch(f->type, f->member))
			strscpy(got, "(test_btf_mismatch)", sizeof(got));
		if (j == n || __btf_member_bitfield_size(t, m) ||
		    __btf_member_bit_offset(t, m) % 8 || strcmp(got, f->ctype)) {
			pr_warn("%s disabled: struct %s.%s is %s in this kernel's BTF, mmfree reads %s\n",
				feature, f->type, f->member,
				j == n ? "missing" : got, f->ctype);
			return -ENOENT;
		}
		*f->offset = __btf_member_bit_offset(t, m) / 8;
	}
	return 0;
}
