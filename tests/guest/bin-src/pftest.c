// SPDX-License-Identifier: GPL-2.0
/*
 * pftest: workloads for the pagefree guest tests (tests/guest/tests/9*).
 * Every command that checks data exits 1 on the first corruption it sees
 * (after printing where), 0 when all went well, 2 on a usage or setup
 * error.
 *
 *   pftest munmap MB N             N x (mmap, populate, munmap)
 *   pftest dontneed MB N           N x (touch, MADV_DONTNEED) on one
 *                                  mapping: after the first round, no
 *                                  allocation but its (movable) pages
 *   pftest node MB N NODE          N x (mmap, bind to NUMA node NODE,
 *                                  populate, check that the pages are on
 *                                  NODE, munmap); NODE "alt": each MiB on
 *                                  node 0 and 1 in turn, "il": nodes 0
 *                                  and 1 interleaved page by page
 *                                  (MPOL_INTERLEAVE)
 *   pftest forkexit MB N           N x (fork a child that populates MB and
 *                                  exits; waitpid)
 *   pftest exitat MB               fork a child that populates MB and exits;
 *                                  print "exit from T" (its _exit()) and
 *                                  "exit to T" (waitpid() returned),
 *                                  CLOCK_MONOTONIC seconds
 *   pftest cow MB ROUNDS           fork/COW: parent and child write distinct
 *                                  patterns, one side exits or unmaps, the
 *                                  other verifies (all four combinations)
 *   pftest file PATH MB ROUNDS     MAP_SHARED file: a child writes and
 *                                  unmaps or exits; the parent verifies the
 *                                  file through read(2), a new mapping and
 *                                  (after fsync + FADV_DONTNEED) the disk
 *   pftest memfdseal MB ROUNDS     a sealable memfd of MB, written through a
 *                                  shared mapping that is unmapped (even
 *                                  rounds) or goes with a child's exit
 *                                  (odd); F_SEAL_WRITE right after must
 *                                  succeed: it fails (EBUSY) while any
 *                                  page of the memfd keeps a reference
 *                                  beyond the page cache's
 *   pftest privfile PATH MB        a MAP_PRIVATE mapping of a file of MB,
 *                                  read whole, every other page written
 *                                  (copied on write): anonymous and file
 *                                  pages alternate in the gather; munmap
 *   pftest swap MB ROUNDS          run in a memcg smaller than MB: pages go
 *                                  to swap and come back through the swap
 *                                  cache while children and other mappings
 *                                  go away; the region keeps its pattern
 *   pftest thp MB                  touch MB; print the AnonHugePages it got;
 *                                  exit 3 if none
 *   pftest split MB N              N x (populate, munmap in odd-sized
 *                                  pieces, splitting any huge page)
 *   pftest herd N MB exit|kill     N children populate MB each, then all
 *                                  exit (or are SIGKILLed) at once
 *   pftest threads MB T SECONDS    T threads write/verify their slices while
 *                                  the main thread MADV_DONTNEEDs the whole
 *                                  region and a scribbler reuses freed pages
 *   pftest oom HOLDERS MB ROUNDS   run in a memcg: HOLDERS children hold MB;
 *                                  each round one exits and a waiting
 *                                  replacement at once populates MB
 *                                  (MAP_POPULATE); prints how many children
 *                                  were killed
 *   pftest hugetlb MB ROUNDS       MAP_HUGETLB memory freed by a child's
 *                                  exit, by munmap and by a SysV SHM_HUGETLB
 *                                  segment's removal is back at once: a
 *                                  mapping of the same size made right
 *                                  after (MAP_POPULATE) succeeds, and
 *                                  HugePages_Free is back after munmap
 *   pftest hugemigrate MB ROUNDS   MAP_SHARED hugetlb memory on node 0, also
 *                                  mapped by a child, moved to node 1 and
 *                                  back (move_pages): try_to_migrate_one()
 *                                  finishes a gather under the page table
 *                                  lock; the data survive
 *   pftest mrelease MB CPU         a child on CPU populates MB; a SCHED_FIFO
 *                                  hog takes CPU; SIGKILL, then
 *                                  process_mrelease(): prints the free
 *                                  memory (MemFree + per-CPU lists) that
 *                                  was back when the call returned
 *   pftest lmkd MB ORDER ROUNDS    a victim of 4 threads populates MB; as lmkd
 *                                  does: pidfd_send_signal(SIGKILL),
 *                                  process_mrelease(), poll() on the
 *                                  pidfd; prints the free memory back when
 *                                  the call returned and when the pidfd
 *                                  became readable.  ORDER reaper-first:
 *                                  a SCHED_FIFO hog holds the victim's CPU
 *                                  0 until the call returned; at-once: the
 *                                  victim exits on CPU 1 beside the caller
 *                                  (nice -10), which calls at once: the
 *                                  scheduler decides whether its reaper
 *                                  zaps beside the victim's exit_mmap() or
 *                                  finds no mm (ESRCH); in-exit: the call
 *                                  comes 20 ms after the kill, the victim
 *                                  on CPU 1 exiting meanwhile (it may find
 *                                  no mm, ESRCH, as lmkd knows); exit: no
 *                                  kill, the victim exits on its own and
 *                                  only the pidfd is polled (nothing is
 *                                  asserted: async mode does not wait)
 *   pftest lmkd MB ORDER ROUNDS UNMAP_MB
 *                                  the same, but the victim first unmaps
 *                                  UNMAP_MB of its MB (async: in flight)
 *   pftest latency SECONDS         as cyclictest does: sleep 1 ms in a loop;
 *                                  print "latency: start T", then each gap
 *                                  between two wakeups over 2 ms as it
 *                                  ends ("gap T US": CLOCK_MONOTONIC end,
 *                                  length), then the wakeups and the
 *                                  longest gap (µs)
 *   pftest hog NODE MB             bound to NUMA node NODE, populate MB at a
 *                                  time until killed (the OOM killer)
 *   pftest pipes STOP_MB           fill pipes (unmovable pages, which CMA
 *                                  cannot serve) until the OOM killer
 *                                  comes; stop itself (SIGSTOP) once, when
 *                                  free memory outside CMA falls below
 *                                  STOP_MB (0: never)
 *   pftest spin SECONDS            burn CPU
 *   pftest stopped MB              populate MB, stop (SIGSTOP) until
 *                                  continued, then munmap it and exit
 *
 * With PFTEST_RUNTIME in the environment, any command prints
 * "runtime_ns=N" as it exits: the CPU time main() ran.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ipc.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define WPP 8			/* checked words per page */
#define HPAGE (2UL << 20)

static const char *cmd = "pftest";

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fputc('\n', stderr);
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The value of checked word w of page i under seed s; never 0. */
static uint64_t pat(uint64_t s, size_t i, unsigned int w)
{
	uint64_t x = s * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)i << 8) ^ w;

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 29;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 32;
	return x | 1;
}

static uint64_t *word(char *p, size_t i, unsigned int w)
{
	/* Spread over the page: word 0 first, word 7 in the last line. */
	return (uint64_t *)(p + i * PAGE + w * (PAGE / WPP) + w * 8);
}

static void fill(char *p, size_t npages, uint64_t s, size_t every,
		 size_t first)
{
	size_t i;
	unsigned int w;

	for (i = first; i < npages; i += every)
		for (w = 0; w < WPP; w++)
			*word(p, i, w) = pat(s, i, w);
}

/*
 * Check pages first, first+every, ... against seed s; print the first
 * few mismatches under label; return the number of bad pages.
 */
static size_t check(const char *label, char *p, size_t npages, uint64_t s,
		    size_t every, size_t first)
{
	size_t i, bad = 0;
	unsigned int w;

	for (i = first; i < npages; i += every) {
		for (w = 0; w < WPP; w++) {
			uint64_t got = *word(p, i, w), want = pat(s, i, w);

			if (got == want)
				continue;
			if (bad < 5)
				printf("%s: page %zu word %u: got %#llx, want %#llx (seed %llu)\n",
				       label, i, w, (unsigned long long)got,
				       (unsigned long long)want,
				       (unsigned long long)s);
			bad++;
			break;
		}
	}
	if (bad)
		printf("%s: %zu of %zu pages bad\n", label, bad,
		       (npages - first + every - 1) / every);
	fflush(stdout);
	return bad;
}

static char *map_anon(size_t len, int populate)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS |
		       (populate ? MAP_POPULATE : 0), -1, 0);

	if (p == MAP_FAILED)
		die("mmap %zu", len);
	return p;
}

/* A 2 MiB aligned anonymous region, so that THP can back all of it. */
static char *map_aligned(size_t len)
{
	char *p = map_anon(len + HPAGE, 0);
	uintptr_t a = ((uintptr_t)p + HPAGE - 1) & ~(HPAGE - 1);

	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	munmap((char *)a + len, (uintptr_t)p + HPAGE - a);
	return (char *)a;
}

static void unmap(char *p, size_t len)
{
	if (munmap(p, len))
		die("munmap");
}

static void touch(char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += PAGE)
		p[i] = 1;
}

/*
 * Allocate, fill and verify a fresh region: it reuses pages just freed,
 * so a page freed while still mapped elsewhere gets overwritten (and a
 * stale write into it shows up here).
 */
static size_t scribble(size_t len, uint64_t s)
{
	char *p = map_anon(len, 0);
	size_t bad;

	fill(p, len / PAGE, s, 1, 0);
	bad = check("scribble", p, len / PAGE, s, 1, 0);
	unmap(p, len);
	return bad;
}

static long arg(char **argv, int i, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(argv[i], &end, 10);
	if (errno || *end || v < min)
		die("bad number '%s'", argv[i]);
	return v;
}

static pid_t xfork(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	return pid;
}

/* Wait for pid; return 0 if it exited 0, else print why and return 1. */
static int reap(pid_t pid, const char *what)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st))
		printf("%s: exit status %d\n", what, WEXITSTATUS(st));
	else
		printf("%s: killed by signal %d\n", what, WTERMSIG(st));
	fflush(stdout);
	return 1;
}

static void xpipe(int fd[2])
{
	if (pipe(fd))
		die("pipe");
}

static void put(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		die("write pipe");
}

/* Read one byte; return 0 at EOF. */
static int get(int fd)
{
	char c;
	ssize_t n;

	while ((n = read(fd, &c, 1)) < 0)
		if (errno != EINTR)
			die("read pipe");
	return n == 1;
}

/* A field of a /proc file ("VmSwap:", "AnonHugePages:"), in kB. */
static long proc_kb(const char *file, const char *field)
{
	char line[256];
	size_t n = strlen(field);
	long v = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n)) {
			v = atol(line + n);
			break;
		}
	fclose(f);
	return v;
}

/* --- munmap, forkexit, split ------------------------------------------ */

static int do_munmap(size_t len, long n)
{
	long i;

	for (i = 0; i < n; i++)
		unmap(map_anon(len, 1), len);
	return 0;
}

/* Its page tables stay: the loop allocates only movable pages. */
static int do_dontneed(size_t len, long n)
{
	char *p = map_anon(len, 0);
	long i;

	for (i = 0; i < n; i++) {
		touch(p, len);
		if (madvise(p, len, MADV_DONTNEED))
			die("madvise");
	}
	return 0;
}

/* From <linux/mempolicy.h>, without libnuma. */
#define MPOL_BIND	2
#define MPOL_INTERLEAVE	3
#define NODE_ALT	(-1)
#define NODE_IL		(-2)
#define MPOL_F_NODE	(1 << 0)
#define MPOL_F_ADDR	(1 << 1)

/* The node of the page at @off: @node, or each MiB on nodes 0, 1 in turn. */
static long node_at(long node, size_t off)
{
	return node >= 0 ? node : (long)(off >> 20) % 2;
}

static int do_node(size_t len, long n, long node)
{
	size_t off, step = node == NODE_ALT ? 1 << 20 : len;
	size_t on[2];
	long i;

	if (node >= (long)(8 * sizeof(unsigned long)))
		die("node %ld: too high", node);
	for (i = 0; i < n; i++) {
		char *p = map_anon(len, 0);

		for (off = 0; off < len; off += step) {
			unsigned long mask = node == NODE_IL ? 3 :
					     1UL << node_at(node, off);
			size_t l = len - off < step ? len - off : step;

			if (syscall(SYS_mbind, p + off, l,
				    node == NODE_IL ? MPOL_INTERLEAVE : MPOL_BIND,
				    &mask, 8 * sizeof(mask), 0))
				die("mbind to nodes %#lx", mask);
		}
		touch(p, len);
		on[0] = on[1] = 0;
		for (off = 0; off < len;
		     off += node == NODE_IL ? PAGE : 64 * PAGE) {
			int got = -1;

			if (syscall(SYS_get_mempolicy, &got, NULL, 0, p + off,
				    MPOL_F_NODE | MPOL_F_ADDR))
				die("get_mempolicy");
			if (node == NODE_IL && (got == 0 || got == 1)) {
				on[got]++;
				continue;
			}
			if (got != node_at(node, off)) {
				printf("node: page %zu is on node %d, not %ld\n",
				       off / PAGE, got, node_at(node, off));
				return 1;
			}
		}
		/* Interleaved: about half of the pages on each node. */
		if (node == NODE_IL && (on[0] < len / PAGE / 3 ||
					on[1] < len / PAGE / 3)) {
			printf("node: %zu pages on node 0, %zu on node 1\n",
			       on[0], on[1]);
			return 1;
		}
		unmap(p, len);
	}
	return 0;
}

static int do_forkexit(size_t len, long n)
{
	long i;
	int bad = 0;

	for (i = 0; i < n; i++) {
		pid_t pid = xfork();

		if (!pid) {
			map_anon(len, 1);
			_exit(0);
		}
		bad |= reap(pid, "forkexit child");
	}
	return bad;
}

/* Between fault and munmap, the caller may move the task to a cgroup. */
static int do_stopped(size_t len)
{
	char *p = map_anon(len, 1);

	if (raise(SIGSTOP))
		die("SIGSTOP");
	unmap(p, len);
	return 0;
}

static int do_exitat(size_t len)
{
	pid_t pid;
	int bad;

	fflush(stdout);
	pid = xfork();
	if (!pid) {
		map_anon(len, 1);
		printf("exit from %.6f\n", now());
		fflush(stdout);
		_exit(0);
	}
	bad = reap(pid, "exitat child");
	printf("exit to %.6f\n", now());
	return bad;
}

/*
 * Unmap in pieces of 1 MiB + 4 KiB (in the middle of huge pages), and
 * verify the rest of the region after each piece.
 */
static int do_split(size_t len, long n)
{
	size_t piece = (1UL << 20) + PAGE, npages = len / PAGE;
	long r;

	for (r = 0; r < n; r++) {
		char *p = map_aligned(len);
		size_t off;

		touch(p, len);
		fill(p, npages, r + 1, 1, 0);
		for (off = 0; off < len; off += piece) {
			size_t l = off + piece > len ? len - off : piece;
			size_t first = (off + l) / PAGE;

			unmap(p + off, l);
			/* The rest keeps its pattern (indexed from p). */
			if (first < npages &&
			    check("split: rest of region", p, npages, r + 1, 1,
				  first)) {
				printf("split round %ld: pages after offset %zu bad\n",
				       r, off + l);
				return 1;
			}
		}
	}
	return 0;
}

/* --- cow -------------------------------------------------------------- */

/*
 * The region is split in thirds by page index: i % 3 == 0 is written by
 * the child after the fork, i % 3 == 1 by the parent, i % 3 == 2 by no one
 * (stays shared).  Seeds: S0 before the fork, SC child, SP parent.
 */
#define S0 11
#define SC 22
#define SP 33

static int cow_verify(const char *who, char *p, size_t npages, int is_child)
{
	size_t bad = 0;

	bad += check(is_child ? "cow child: its own third" : "cow parent: child's third (original)",
		     p, npages, is_child ? SC : S0, 3, 0);
	bad += check(is_child ? "cow child: parent's third (original)" : "cow parent: its own third",
		     p, npages, is_child ? S0 : SP, 3, 1);
	bad += check("cow: shared third", p, npages, S0, 3, 2);
	if (bad)
		printf("cow: %s found %zu bad pages\n", who, bad);
	return bad != 0;
}

/*
 * One round, in a process of its own: leaver (0 = parent, 1 = child)
 * exits or unmaps; the other side scribbles, verifies and reports one
 * byte ('0' good, '1' bad) on res.
 */
static void cow_round(size_t len, int leaver_child, int by_exit, int res)
{
	size_t npages = len / PAGE;
	char *p = map_anon(len, 0);
	int p2c[2], c2p[2], gone[2], over[2];
	pid_t pid;
	int is_child, leaver, bad;

	fill(p, npages, S0, 1, 0);
	xpipe(p2c);
	xpipe(c2p);
	xpipe(gone);
	xpipe(over);
	pid = xfork();
	is_child = !pid;
	leaver = is_child == leaver_child;

	/* Both sides write their third, then wait for the other. */
	fill(p, npages, is_child ? SC : SP, 3, is_child ? 0 : 1);
	put(is_child ? c2p[1] : p2c[1], 'w');
	if (!get(is_child ? p2c[0] : c2p[0]))
		die("cow: lost the other side");
	if (leaver) {
		close(gone[0]);
		close(over[1]);
		close(res);
		if (by_exit)
			_exit(0);	/* "gone" reaches EOF after exit_mm */
		unmap(p, len);
		put(gone[1], 'u');
		close(gone[1]);
		/* Stay alive until the survivor is done. */
		get(over[0]);
		_exit(0);
	}
	close(gone[1]);
	close(over[0]);
	get(gone[0]);
	bad = scribble(len, 44 + is_child) != 0;
	bad |= cow_verify(is_child ? "child" : "parent", p, npages, is_child);
	/* Again after the leaver's pages had more time to be reused. */
	bad |= scribble(len, 55) != 0;
	bad |= cow_verify(is_child ? "child (2nd pass)" : "parent (2nd pass)",
			  p, npages, is_child);
	put(res, bad ? '1' : '0');
	close(over[1]);
	if (!is_child)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	_exit(0);
}

static int do_cow(size_t len, long rounds)
{
	static const char *const names[] = {
		"child exits", "child unmaps", "parent exits", "parent unmaps",
	};
	long r;
	int bad = 0;

	/* A survivor child whose parent left is reparented to us. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		die("PR_SET_CHILD_SUBREAPER");
	for (r = 0; r < rounds; r++) {
		int k = r % 4, res[2];
		pid_t pid;
		char c = 0;
		ssize_t n;

		xpipe(res);
		pid = xfork();
		if (!pid) {
			close(res[0]);
			cow_round(len, k < 2, !(k & 1), res[1]);
		}
		close(res[1]);
		while ((n = read(res[0], &c, 1)) < 0 && errno == EINTR)
			;
		close(res[0]);
		bad |= reap(pid, "cow round process");
		while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
			;
		if (n != 1 || c != '0') {
			printf("cow round %ld (%s): %s\n", r, names[k],
			       n != 1 ? "no result" : "CORRUPTED");
			bad = 1;
		} else {
			printf("cow round %ld (%s): ok\n", r, names[k]);
		}
		fflush(stdout);
	}
	return bad;
}

/* --- file ------------------------------------------------------------- */

static size_t file_check_read(int fd, size_t npages, uint64_t s)
{
	char *buf = malloc(PAGE);
	size_t i, bad = 0;
	unsigned int w;

	if (!buf)
		die("malloc");
	for (i = 0; i < npages; i++) {
		if (pread(fd, buf, PAGE, i * PAGE) != (ssize_t)PAGE)
			die("pread");
		for (w = 0; w < WPP; w++)
			if (*word(buf, 0, w) != pat(s, i, w)) {
				if (bad < 5)
					printf("file read: page %zu word %u: got %#llx, want %#llx\n",
					       i, w,
					       (unsigned long long)*word(buf, 0, w),
					       (unsigned long long)pat(s, i, w));
				bad++;
				break;
			}
	}
	free(buf);
	if (bad)
		printf("file read: %zu of %zu pages bad\n", bad, npages);
	return bad;
}

/* PATH created (or emptied) with a size of len: its descriptor. */
static int create_sized(const char *path, size_t len)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		die("open %s", path);
	if (ftruncate(fd, len))
		die("ftruncate");
	return fd;
}

static char *map_file(int fd, size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		die("mmap file");
	return p;
}

/*
 * Round kinds: 0 child maps, writes, munmaps, exits; 1 child maps, writes,
 * exits without munmap; 2 the parent maps first, the child inherits the
 * mapping, writes and exits, the parent verifies through its mapping.
 */
static int do_file(const char *path, size_t len, long rounds)
{
	static const char *const names[] = {
		"child unmaps", "child exits", "inherited mapping, child exits",
	};
	size_t npages = len / PAGE;
	long r;
	int bad = 0;

	for (r = 0; r < rounds; r++) {
		int k = r % 3, fd;
		uint64_t s = 100 + r;
		char *pm = NULL, *p;
		size_t b = 0;
		pid_t pid;

		fd = create_sized(path, len);
		if (k == 2)
			pm = map_file(fd, len);
		pid = xfork();
		if (!pid) {
			p = pm ? pm : map_file(fd, len);
			fill(p, npages, s, 1, 0);
			if (k == 0)
				unmap(p, len);
			_exit(0);
		}
		if (reap(pid, "file child"))
			return 1;
		b += scribble(len, 7);
		if (pm)
			b += check("file: parent's inherited mapping", pm,
				   npages, s, 1, 0);
		b += file_check_read(fd, npages, s);
		p = map_file(fd, len);
		b += check("file: new mapping", p, npages, s, 1, 0);
		unmap(p, len);
		if (pm)
			unmap(pm, len);
		/* From the disk (a no-op on tmpfs). */
		if (fsync(fd))
			die("fsync");
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		b += scribble(len, 8);
		b += file_check_read(fd, npages, s);
		close(fd);
		printf("file round %ld (%s): %s\n", r, names[k],
		       b ? "CORRUPTED" : "ok");
		fflush(stdout);
		bad |= b != 0;
	}
	unlink(path);
	return bad;
}

/* --- memfd sealing ---------------------------------------------------- */

static int do_memfdseal(size_t len, long rounds)
{
	size_t npages = len / PAGE;
	int bad = 0;
	long r;

	for (r = 0; r < rounds; r++) {
		const char *how = r % 2 ? "a child's exit" : "munmap";
		int fd = memfd_create("pftest", MFD_ALLOW_SEALING);
		pid_t pid;
		char *p;

		if (fd < 0)
			die("memfd_create");
		if (ftruncate(fd, len))
			die("ftruncate");
		if (r % 2) {
			pid = xfork();
			if (!pid) {
				fill(map_file(fd, len), npages, 300 + r, 1, 0);
				_exit(0);
			}
			if (reap(pid, "memfd child"))
				return 1;
		} else {
			p = map_file(fd, len);
			fill(p, npages, 300 + r, 1, 0);
			unmap(p, len);
		}
		/* Waits up to about 75 ms for extra references to go. */
		if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE)) {
			printf("memfdseal round %ld: F_SEAL_WRITE after %s: %s\n",
			       r, how, strerror(errno));
			bad = 1;
		} else {
			printf("memfdseal round %ld: sealed after %s\n", r, how);
		}
		fflush(stdout);
		close(fd);
	}
	return bad;
}

static int do_privfile(const char *path, size_t len)
{
	size_t i, npages = len / PAGE;
	volatile char sum = 0;
	char *p;
	int fd;

	fd = create_sized(path, len);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		die("mmap private file");
	for (i = 0; i < npages; i++)
		sum += p[i * PAGE];
	for (i = 0; i < npages; i += 2)
		p[i * PAGE] = 1;
	unmap(p, len);
	close(fd);
	unlink(path);
	printf("privfile: %zu pages mapped, %zu written\n", npages,
	       (npages + 1) / 2);
	return 0;
}

/* --- swap ------------------------------------------------------------- */

static long swapcached_max;

static void note_swapcache(void)
{
	long v = proc_kb("/proc/meminfo", "SwapCached:");

	if (v > swapcached_max)
		swapcached_max = v;
}

/* Check in chunks, sampling SwapCached while pages come back. */
static size_t swap_check(const char *label, char *p, size_t npages, uint64_t s)
{
	size_t done, bad = 0, chunk = 1024;

	for (done = 0; done < npages; done += chunk) {
		size_t end = npages - done < chunk ? npages : done + chunk;

		bad += check(label, p, end, s, 1, done);
		note_swapcache();
	}
	return bad;
}

static int do_swap(size_t len, long rounds)
{
	size_t npages = len / PAGE;
	char *p = map_anon(len, 0);
	long r, vmswap;
	int bad = 0;

	fill(p, npages, 1, 1, 0);
	vmswap = proc_kb("/proc/self/status", "VmSwap:");
	printf("swap: %zu kB region, VmSwap %ld kB after filling\n",
	       len >> 10, vmswap);
	for (r = 0; r < rounds && !bad; r++) {
		size_t b = 0;
		pid_t pid;
		char *q;

		/* A child reads all (swap-in to the swap cache, shared with
		 * our swap entries), writes every other page, exits. */
		pid = xfork();
		if (!pid) {
			size_t cb = swap_check("swap child", p, npages, 1);

			fill(p, npages, 2, 2, 0);
			cb += check("swap child: own writes", p, npages, 2, 2, 0);
			_exit(cb ? 1 : 0);
		}
		b += reap(pid, "swap child (read, write, exit)");
		b += swap_check("swap parent after child exit", p, npages, 1);

		/* Another mapping pushed out and unmapped half read back. */
		q = map_anon(len / 2, 0);
		fill(q, npages / 2, 3, 1, 0);
		b += swap_check("swap second region", q, npages / 4, 3);
		unmap(q, len / 2);
		b += swap_check("swap parent after munmap", p, npages, 1);

		/* A child reads half, then unmaps the region and exits. */
		pid = xfork();
		if (!pid) {
			size_t cb = swap_check("swap child 2", p, npages / 2, 1);

			unmap(p, len);
			_exit(cb ? 1 : 0);
		}
		b += reap(pid, "swap child (read, munmap, exit)");
		b += swap_check("swap parent after child munmap", p, npages, 1);
		vmswap = proc_kb("/proc/self/status", "VmSwap:");
		printf("swap round %ld: %s (VmSwap %ld kB, SwapCached max %ld kB)\n",
		       r, b ? "CORRUPTED" : "ok", vmswap, swapcached_max);
		fflush(stdout);
		bad |= b != 0;
	}
	printf("swapcached_max_kb %ld\n", swapcached_max);
	return bad;
}

/* --- thp -------------------------------------------------------------- */

static int do_thp(size_t len)
{
	long before = proc_kb("/proc/meminfo", "AnonHugePages:"), after, self;
	char *p = map_aligned(len);

	touch(p, len);
	after = proc_kb("/proc/meminfo", "AnonHugePages:");
	self = proc_kb("/proc/self/smaps_rollup", "AnonHugePages:");
	printf("thp: AnonHugePages (meminfo) %ld -> %ld kB, this process %ld kB\n",
	       before, after, self);
	fflush(stdout);
	unmap(p, len);
	return after > before && self > 0 ? 0 : 3;
}

/* --- herd ------------------------------------------------------------- */

static int do_herd(long n, size_t len, int kill_them)
{
	int ready[2], go[2], bad = 0;
	pid_t *pids = calloc(n, sizeof(*pids));
	double t;
	long i;

	if (!pids)
		die("calloc");
	xpipe(ready);
	xpipe(go);
	for (i = 0; i < n; i++) {
		pids[i] = xfork();
		if (!pids[i]) {
			close(ready[0]);
			close(go[1]);
			touch(map_anon(len, 0), len);
			put(ready[1], 'r');
			get(go[0]);	/* EOF: everyone goes */
			_exit(0);
		}
	}
	close(ready[1]);
	close(go[0]);
	for (i = 0; i < n; i++)
		if (!get(ready[0]))
			die("herd: a child died before it was ready");
	t = now();
	if (kill_them) {
		for (i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
	} else {
		close(go[1]);
	}
	for (i = 0; i < n; i++) {
		int st;

		while (waitpid(pids[i], &st, 0) < 0)
			if (errno != EINTR)
				die("waitpid");
		if (kill_them ? !(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			      : !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			printf("herd child %ld: unexpected status %#x\n", i, st);
			bad = 1;
		}
	}
	printf("herd: %ld x %zu MiB %s in %.3f s\n", n, len >> 20,
	       kill_them ? "killed" : "exited", now() - t);
	free(pids);
	return bad;
}

/* --- threads ---------------------------------------------------------- */

/*
 * Every checked word of a worker's page is 0 (zapped) or
 * MAGIC | tid << 40 | page << 16 | (gen & 0xffff).
 */
#define TMAGIC 0x5a00000000000000ULL
#define TMASK 0xff00000000000000ULL

static char *t_region;
static size_t t_npages, t_slice;
static volatile int t_stop;
static volatile long t_bad, t_zero_seen, t_checks, t_scribbles;

static uint64_t tval(long tid, size_t page, uint64_t gen, unsigned int w)
{
	return TMAGIC | (uint64_t)tid << 40 | (uint64_t)page << 16 |
	       ((gen * WPP + w) & 0xffff);
}

static void *t_worker(void *a)
{
	long tid = (long)a;
	size_t first = tid * t_slice, end = first + t_slice, i;
	uint64_t gen = 0;
	unsigned int w;

	while (!t_stop) {
		long zeros = 0;

		gen++;
		for (i = first; i < end; i++)
			for (w = 0; w < WPP; w++)
				*(volatile uint64_t *)word(t_region, i, w) =
					tval(tid, i, gen, w);
		for (i = first; i < end; i++)
			for (w = 0; w < WPP; w++) {
				uint64_t v = *(volatile uint64_t *)word(t_region, i, w);

				if (!v) {
					zeros++;
					continue;
				}
				if (v != tval(tid, i, gen, w)) {
					if (__sync_fetch_and_add(&t_bad, 1) < 5)
						printf("thread %ld page %zu word %u gen %llu: got %#llx, want %#llx or 0\n",
						       tid, i, w,
						       (unsigned long long)gen,
						       (unsigned long long)v,
						       (unsigned long long)tval(tid, i, gen, w));
				}
			}
		__sync_fetch_and_add(&t_checks, 1);
		if (zeros)
			__sync_fetch_and_add(&t_zero_seen, 1);
	}
	return NULL;
}

/* Reads the whole region: any non-zero word must be a worker's value
 * for exactly this page and word slot. */
static void *t_reader(void *a)
{
	size_t i;
	unsigned int w;

	(void)a;
	while (!t_stop)
		for (i = 0; i < t_npages; i++)
			for (w = 0; w < WPP; w++) {
				uint64_t v = *(volatile uint64_t *)word(t_region, i, w);
				long tid = i / t_slice;

				if (!v)
					continue;
				if ((v & TMASK) != TMAGIC ||
				    ((v >> 40) & 0xffff) != (uint64_t)tid ||
				    ((v >> 16) & 0xffffff) != (i & 0xffffff) ||
				    (v & 0xffff) % WPP != w) {
					if (__sync_fetch_and_add(&t_bad, 1) < 5)
						printf("reader: page %zu word %u: foreign value %#llx\n",
						       i, w, (unsigned long long)v);
				}
			}
	return NULL;
}

/* Reuses freed pages: a stale mapping writing into them shows here. */
static void *t_scribbler(void *a)
{
	size_t len = (size_t)a;

	while (!t_stop) {
		if (scribble(len, 77 + t_scribbles))
			__sync_fetch_and_add(&t_bad, 1);
		__sync_fetch_and_add(&t_scribbles, 1);
	}
	return NULL;
}

static int do_threads(size_t len, long nthreads, long seconds)
{
	pthread_t th[66];
	long i, zaps = 0, nth;
	double end;

	if (nthreads > 64)
		die("at most 64 threads");
	t_region = map_anon(len, 0);
	t_npages = len / PAGE;
	t_slice = t_npages / nthreads;
	nth = 0;
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&th[nth++], NULL, t_worker, (void *)i))
			die("pthread_create");
	if (pthread_create(&th[nth++], NULL, t_reader, NULL))
		die("pthread_create");
	if (pthread_create(&th[nth++], NULL, t_scribbler, (void *)(len / 4)))
		die("pthread_create");
	end = now() + seconds;
	while (now() < end) {
		if (madvise(t_region, len, MADV_DONTNEED))
			die("madvise");
		zaps++;
		usleep(20000);
	}
	t_stop = 1;
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	printf("threads: %ld zaps, %ld slice passes (%ld saw zapped pages), %ld scribbles, %ld bad\n",
	       zaps, t_checks, t_zero_seen, t_scribbles, t_bad);
	if (!t_zero_seen)
		printf("threads: no worker ever saw a zapped page\n");
	return t_bad || !t_zero_seen || zaps < 2;
}

/* --- oom -------------------------------------------------------------- */

struct holder {
	pid_t pid;
	int go;			/* write end: closing it makes it populate */
	int quit;		/* write end: closing it makes it exit */
	int ready;		/* read end: one byte once populated */
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void set_oom_score_adj(const char *v)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY);

	if (fd < 0 || write(fd, v, strlen(v)) < 0)
		die("oom_score_adj");
	close(fd);
}

/* Fork a holder that waits for "go", populates len, reports, waits. */
static struct holder spawn_holder(size_t len)
{
	int go[2], quit[2], ready[2];
	struct holder h;

	xpipe(go);
	xpipe(quit);
	xpipe(ready);
	h.pid = xfork();
	if (!h.pid) {
		int fd;

		set_oom_score_adj("0");
		/* Only its own pipe ends: a copy of another holder's "quit"
		 * would keep that one from seeing EOF. */
		for (fd = 3; fd < 1024; fd++)
			if (fd != go[0] && fd != quit[0] && fd != ready[1])
				close(fd);
		get(go[0]);
		map_anon(len, 1);	/* MAP_POPULATE: as fast as it gets */
		put(ready[1], 'r');
		get(quit[0]);
		_exit(0);
	}
	close(go[0]);
	close(quit[0]);
	close(ready[1]);
	h.go = go[1];
	h.quit = quit[1];
	h.ready = ready[0];
	return h;
}

/* Let it populate; return 1 once it has, 0 if it died first. */
static int start_holder(struct holder *h)
{
	close_fd(&h->go);
	return get(h->ready);
}

/* Make it exit (if alive) and reap it; return 1 if SIGKILL ended it. */
static int reap_holder(struct holder *h)
{
	int st;

	close_fd(&h->go);
	close_fd(&h->quit);
	close_fd(&h->ready);
	while (waitpid(h->pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
}

/* A populated holder, respawning (at most twice) one that got killed. */
static struct holder new_holder(size_t len, long *killed, const char *what)
{
	int tries;

	for (tries = 0; tries < 3; tries++) {
		struct holder h = spawn_holder(len);

		if (start_holder(&h))
			return h;
		*killed += reap_holder(&h);
		printf("oom: %s died while populating\n", what);
	}
	errno = 0;
	die("oom: %s could not populate %zu MiB three times", what, len >> 20);
	exit(2);
}

static int do_oom(long n, size_t len, long rounds)
{
	struct holder *h = calloc(n, sizeof(*h));
	long i, r, killed = 0;
	double t = now();

	if (!h)
		die("calloc");
	/* The OOM killer must pick a holder, never this process. */
	set_oom_score_adj("-1000");
	for (i = 0; i < n; i++)
		h[i] = new_holder(len, &killed, "a first holder");
	for (r = 0; r < rounds; r++) {
		long k = r % n;
		struct holder next = spawn_holder(len);

		/* Holder k exits; as soon as waitpid says it is gone, the
		 * replacement (already forked) populates as much. */
		killed += reap_holder(&h[k]);
		if (!start_holder(&next)) {
			killed += reap_holder(&next);
			printf("oom round %ld: the replacement was killed\n", r);
			next = new_holder(len, &killed, "a replacement");
		}
		h[k] = next;
	}
	for (i = 0; i < n; i++)
		killed += reap_holder(&h[i]);
	printf("oom: %ld rounds of %ld x %zu MiB in %.2f s\n", rounds, n,
	       len >> 20, now() - t);
	printf("oom_killed %ld\n", killed);
	free(h);
	return 0;
}

/* --- hugetlb, mrelease, hog ------------------------------------------- */

static long meminfo_kb(const char *field)
{
	return proc_kb("/proc/meminfo", field);
}

/* Free memory in kB: MemFree plus the pages on the per-CPU lists. */
static long free_kb(void)
{
	char line[256];
	long pcp = 0;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		die("/proc/zoneinfo");
	while (fgets(line, sizeof(line), f)) {
		char *c = strstr(line, "count:");

		if (c)
			pcp += atol(c + 6);
	}
	fclose(f);
	return meminfo_kb("MemFree:") + pcp * (PAGE / 1024);
}

static char *map_huge(size_t len, int flags)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_ANONYMOUS | MAP_HUGETLB | flags, -1, 0);
}

/* Touch every huge page of a fresh MAP_HUGETLB region; 0 if it worked. */
static int huge_touch(size_t len)
{
	char *p = map_huge(len, MAP_PRIVATE);

	if (p == MAP_FAILED)
		return 1;
	memset(p, 0x5a, len);
	return 0;
}

/*
 * Right after memory was given back, the same size again: the hugetlb
 * pool must hold it (MAP_POPULATE reserves and faults every page).
 */
static int huge_again(const char *how, long r, size_t len)
{
	char *p = map_huge(len, MAP_PRIVATE | MAP_POPULATE);

	if (p == MAP_FAILED) {
		printf("hugetlb round %ld, %s: mapping %zu MiB again failed: %s (HugePages_Free %ld of %ld)\n",
		       r, how, len >> 20, strerror(errno),
		       meminfo_kb("HugePages_Free:"),
		       meminfo_kb("HugePages_Total:"));
		return 1;
	}
	unmap(p, len);
	return 0;
}

static int huge_child_exit(long r, size_t len)
{
	pid_t pid = xfork();

	if (!pid)
		_exit(huge_touch(len) ? 3 : 0);
	if (reap(pid, "hugetlb child"))
		die("hugetlb child could not map %zu MiB", len >> 20);
	return huge_again("after the child's exit", r, len);
}

static int huge_munmap(long r, size_t len)
{
	char *p = map_huge(len, MAP_PRIVATE);
	long free, total;

	if (p == MAP_FAILED) {
		printf("hugetlb round %ld: mapping %zu MiB right after the last munmap failed: %s (HugePages_Free %ld of %ld)\n",
		       r, len >> 20, strerror(errno),
		       meminfo_kb("HugePages_Free:"),
		       meminfo_kb("HugePages_Total:"));
		return 1;
	}
	memset(p, 0x5a, len);
	unmap(p, len);
	free = meminfo_kb("HugePages_Free:");
	total = meminfo_kb("HugePages_Total:");
	if (free != total) {
		printf("hugetlb round %ld: HugePages_Free %ld of %ld right after munmap\n",
		       r, free, total);
		return 1;
	}
	return huge_again("after munmap", r, len);
}

static int huge_shm(long r, size_t len)
{
	pid_t pid = xfork();

	if (!pid) {
		int id = shmget(IPC_PRIVATE, len, SHM_HUGETLB | IPC_CREAT | 0600);
		char *p;

		if (id < 0)
			_exit(3);
		p = shmat(id, NULL, 0);
		if (p == (void *)-1)
			_exit(4);
		memset(p, 0x5a, len);
		shmctl(id, IPC_RMID, NULL);
		_exit(0);
	}
	if (reap(pid, "hugetlb shm child"))
		die("SHM_HUGETLB segment of %zu MiB", len >> 20);
	return huge_again("after the SHM_HUGETLB segment went", r, len);
}

static int do_hugetlb(size_t len, long rounds)
{
	int bad = 0;
	long r;

	for (r = 0; r < rounds; r++) {
		bad |= huge_child_exit(r, len);
		bad |= huge_munmap(r, len);
		bad |= huge_shm(r, len);
	}
	printf("hugetlb: %ld rounds of exit, munmap and shm, %s\n", rounds,
	       bad ? "FAILED" : "memory back at once every time");
	return bad;
}

/* move_pages() every page of p to node; return the pages not there. */
static size_t move_all(char *p, size_t len, int node)
{
	size_t n = len / HPAGE, i, off = 0;
	void **pages = calloc(n, sizeof(*pages));
	int *nodes = calloc(n, sizeof(*nodes)), *status = calloc(n, sizeof(int));

	if (!pages || !nodes || !status)
		die("calloc");
	for (i = 0; i < n; i++) {
		pages[i] = p + i * HPAGE;
		nodes[i] = node;
	}
	/* MPOL_MF_MOVE_ALL (1 << 2): shared pages too. */
	if (syscall(SYS_move_pages, 0, n, pages, nodes, status, 1 << 2) < 0)
		die("move_pages to node %d", node);
	for (i = 0; i < n; i++)
		off += status[i] != node;
	free(pages);
	free(nodes);
	free(status);
	return off;
}

static int do_hugemigrate(size_t len, long rounds)
{
	char *p = map_huge(len, MAP_SHARED);
	size_t npages = len / PAGE, stray = 0;
	int fd[2], bad = 0;
	long r;
	pid_t pid;

	if (p == MAP_FAILED)
		die("MAP_SHARED|MAP_HUGETLB %zu MiB", len >> 20);
	fill(p, npages, 7, 1, 0);
	xpipe(fd);
	pid = xfork();
	if (!pid) {
		/* A second mapping of every page (read), then wait. */
		if (check("hugemigrate child", p, npages, 7, 1, 0))
			_exit(1);
		close(fd[1]);
		get(fd[0]);
		_exit(check("hugemigrate child", p, npages, 7, 1, 0) ? 1 : 0);
	}
	close(fd[0]);
	for (r = 0; r < rounds; r++) {
		stray += move_all(p, len, 1);
		stray += move_all(p, len, 0);
		bad |= check("hugemigrate", p, npages, 7, 1, 0) != 0;
	}
	close(fd[1]);
	bad |= reap(pid, "hugemigrate child");
	printf("hugemigrate: %ld rounds of %zu MiB to node 1 and back, %zu page moves did not land\n",
	       rounds, len >> 20, stray);
	return bad;
}

static void pin(long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity %ld", cpu);
}

/*
 * A SCHED_FIFO hog on @cpu: nothing else runs there until it is killed
 * (the caller lifts the real-time throttle: sched_rt_runtime_us = -1).
 */
static pid_t fifo_hog(long cpu)
{
	pid_t hog = xfork();

	if (!hog) {
		struct sched_param sp = { .sched_priority = 1 };

		pin(cpu);
		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			die("SCHED_FIFO hog on CPU %ld", cpu);
		for (;;)
			;
	}
	usleep(200000);
	return hog;
}

static int do_mrelease(size_t len, long cpu)
{
	long base, held, back;
	double t0, t1;
	int fd[2], pidfd, ret;
	pid_t pid, hog;

	base = free_kb();
	xpipe(fd);
	pid = xfork();
	if (!pid) {
		pin(cpu);
		map_anon(len, 1);
		put(fd[1], 'r');
		for (;;)
			pause();
	}
	close(fd[1]);
	if (!get(fd[0]))
		die("mrelease child died");
	/* The dying child must not free its own memory meanwhile. */
	hog = fifo_hog(cpu);
	held = free_kb();
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		die("pidfd_open");
	if (kill(pid, SIGKILL))
		die("kill");
	t0 = now();
	ret = syscall(SYS_process_mrelease, pidfd, 0);
	t1 = now();
	back = free_kb() - held;
	if (ret)
		die("process_mrelease");
	printf("mrelease: the child took %ld kB; %ld kB were back when process_mrelease returned after %.3f s\n",
	       base - held, back, t1 - t0);
	kill(hog, SIGKILL);
	reap(hog, "mrelease hog");
	reap(pid, "mrelease child");
	return 0;
}

static void *lmkd_thread(void *a)
{
	(void)a;
	for (;;)
		pause();
	return NULL;
}

/*
 * A victim of 4 threads on @cpu holding @len, of which it has unmapped
 * the first @unmap again; its pid.  It calls exit(0) when a byte arrives
 * on *@cmd.
 */
static pid_t lmkd_victim(size_t len, size_t unmap, long cpu, int *cmd)
{
	int fd[2], in[2], i;
	pid_t pid;

	xpipe(fd);
	xpipe(in);
	pid = xfork();
	if (!pid) {
		pthread_t t;
		char *p;

		close(in[1]);
		pin(cpu);
		if (setpriority(PRIO_PROCESS, 0, 0))
			die("setpriority 0");
		for (i = 0; i < 3; i++)
			if (pthread_create(&t, NULL, lmkd_thread, NULL))
				die("pthread_create");
		p = map_anon(len, 1);
		if (unmap && munmap(p, unmap))
			die("munmap");
		put(fd[1], 'r');
		get(in[0]);
		exit(0);
	}
	close(fd[1]);
	close(in[0]);
	if (!get(fd[0]))
		die("lmkd victim died");
	close(fd[0]);
	*cmd = in[1];
	return pid;
}

enum lmkd_order { LMKD_REAPER_FIRST, LMKD_AT_ONCE, LMKD_IN_EXIT, LMKD_EXIT };

static const char *const lmkd_orders[] = {
	"reaper-first", "at-once", "in-exit", "exit"
};

/*
 * One kill as lmkd makes it; fails if less than 90% of what the victim
 * took is free when process_mrelease() returns 0, or when the pidfd is
 * readable (the victim's exit is visible).  What it took: what is not
 * free since it started, the pages it unmapped still in flight included.
 */
static int lmkd_round(size_t len, size_t unmap, enum lmkd_order order,
		      long round)
{
	int reaper_first = order == LMKD_REAPER_FIRST;
	long base, held, took, at_call = -1, at_exit;
	double t0, t_call = 0, t_exit;
	struct pollfd pfd;
	pid_t pid, hog = 0;
	int pidfd, cmd, ret = ESRCH, err = 0, bad = 0;

	base = free_kb();
	pid = lmkd_victim(len, unmap, reaper_first ? 0 : 1, &cmd);
	if (reaper_first)
		hog = fifo_hog(0);
	held = free_kb();
	took = base - held;
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		die("pidfd_open");
	t0 = now();
	if (order == LMKD_EXIT) {
		/* No kill: the victim exits on its own, exit_group(0). */
		put(cmd, 'x');
		goto poll;
	}
	if (syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0))
		die("pidfd_send_signal");
	/*
	 * Not by watching the victim: reading its /proc files takes a
	 * reference to its mm, and the reader may end up with the last one
	 * (and run exit_mmap() itself).
	 */
	if (order == LMKD_IN_EXIT)
		usleep(20000);
	ret = syscall(SYS_process_mrelease, pidfd, 0);
	if (ret)
		err = errno;
	t_call = now() - t0;
	if (!ret)
		at_call = free_kb() - held;
	else if (err != ESRCH)
		die("process_mrelease");
	if (hog) {
		kill(hog, SIGKILL);
		reap(hog, "lmkd hog");
	}
poll:
	pfd.fd = pidfd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 120000) != 1)
		die("the victim's pidfd never became readable");
	t_exit = now() - t0;
	at_exit = free_kb() - held;
	printf("lmkd %s round %ld: the victim took %ld kB",
	       lmkd_orders[order], round, took);
	if (unmap)
		printf(" (%zu kB of it unmapped again)", unmap >> 10);
	printf("; ");
	if (order == LMKD_EXIT)
		printf("it exited on its own; ");
	else if (ret)
		printf("process_mrelease found no mm (ESRCH) after %.3f s; ",
		       t_call);
	else
		printf("%ld kB back when process_mrelease returned 0 after %.3f s; ",
		       at_call, t_call);
	printf("%ld kB back when the pidfd became readable after %.3f s\n",
	       at_exit, t_exit);
	if (took < (long)((len - unmap) >> 10) * 9 / 10) {
		printf("lmkd: the victim took only %ld kB\n", took);
		bad = 1;
	}
	if (!ret && at_call * 10 < took * 9) {
		printf("lmkd: not 90%% back when process_mrelease returned 0\n");
		bad = 1;
	}
	/* An exit of its own is the mode's: async does not wait. */
	if (order != LMKD_EXIT && at_exit * 10 < took * 9) {
		printf("lmkd: not 90%% back when the victim's exit was visible\n");
		bad = 1;
	}
	close(cmd);
	close(pidfd);
	reap(pid, "lmkd victim");
	return bad;
}

static int do_lmkd(size_t len, size_t unmap, const char *name, long rounds)
{
	enum lmkd_order order = LMKD_REAPER_FIRST;
	long r;
	int bad = 0;

	while (strcmp(name, lmkd_orders[order]))
		if (++order == ARRAY_SIZE(lmkd_orders))
			die("lmkd: ORDER is reaper-first, at-once, in-exit or exit");
	/* The caller runs beside the victim, or beside its starved CPU. */
	pin(1);
	/* At once: the reaper may come before the victim's threads let go. */
	if (order == LMKD_AT_ONCE && setpriority(PRIO_PROCESS, 0, -10))
		die("setpriority -10");
	for (r = 1; r <= rounds; r++)
		bad |= lmkd_round(len, unmap, order, r);
	return bad;
}

static int do_latency(long seconds)
{
	double end = now() + seconds, last = now(), gap, worst = 0;
	long wakeups = 0;

	/* Flushed as they come: the caller may kill the loop. */
	printf("latency: start %.6f\n", last);
	fflush(stdout);
	while (last < end) {
		usleep(1000);
		gap = now() - last;
		last += gap;
		if (gap > worst)
			worst = gap;
		if (gap > 0.002) {
			printf("gap %.6f %.0f\n", last, gap * 1e6);
			fflush(stdout);
		}
		wakeups++;
	}
	printf("latency: %ld wakeups, longest gap %.0f us\n", wakeups,
	       worst * 1e6);
	return 0;
}

static int do_hog(long node, size_t step)
{
	unsigned long mask = 1UL << node;

	if (syscall(SYS_set_mempolicy, MPOL_BIND, &mask, 8 * sizeof(mask)))
		die("set_mempolicy node %ld", node);
	for (;;)
		map_anon(step, 1);
	return 0;
}

/*
 * Pipe buffers are unmovable (GFP_HIGHUSER, no __GFP_MOVABLE): a free
 * CMA page cannot hold one, the OOM reaper cannot take them, and exit
 * frees them at once, without an RCU grace period (unlike page tables).
 * Fill 1 MiB pipes (the default pipe-max-size) until free memory outside
 * CMA (MemFree - CmaFree) falls below @stop_kb, stop (SIGSTOP) once so
 * that the caller can set the scene for the OOM to come, then fill on
 * until killed.
 */
static int do_pipes(long stop_kb)
{
	static char buf[1 << 16];
	struct rlimit rl;
	long n = 0;

	memset(buf, 0x5a, sizeof(buf));
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (;;) {
		int fd[2];

		if (pipe2(fd, O_NONBLOCK))
			die("pipe %ld", n);
		fcntl(fd[1], F_SETPIPE_SZ, 1 << 20);
		while (write(fd[1], buf, sizeof(buf)) > 0)
			;
		n++;
		if (stop_kb &&
		    meminfo_kb("MemFree:") - meminfo_kb("CmaFree:") < stop_kb) {
			printf("pipes: stopping at %ld kB free outside CMA, %ld pipes\n",
			       meminfo_kb("MemFree:") - meminfo_kb("CmaFree:"), n);
			fflush(stdout);
			stop_kb = 0;
			raise(SIGSTOP);
		}
	}
	return 0;
}

/* --- main ------------------------------------------------------------- */

/* This task's CPU time so far (ns), or 0 after saying why. */
static unsigned long long runtime_ns(void)
{
	unsigned long long ns = 0;
	FILE *f = fopen("/proc/self/schedstat", "r");

	if (!f || fscanf(f, "%llu", &ns) != 1)
		fprintf(stderr, "pftest: cannot read /proc/self/schedstat\n");
	if (f)
		fclose(f);
	return ns;
}

static unsigned long long runtime_start;

/*
 * With PFTEST_RUNTIME set: "runtime_ns=N" on exit, the CPU time main()
 * ran, so that a test can tell it from what else its cgroup was charged
 * (the shell that exec'd pftest may have run before it joined).
 */
static void print_runtime(void)
{
	unsigned long long end = runtime_ns();

	/* No exit() in an atexit handler: the missing line fails the test. */
	if (end && runtime_start)
		printf("runtime_ns=%llu\n", end - runtime_start);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pftest munmap|dontneed|forkexit|split MB N | node MB N NODE|alt|il | cow MB ROUNDS\n"
		"       pftest exitat MB\n"
		"       pftest file PATH MB ROUNDS | memfdseal MB ROUNDS | privfile PATH MB\n"
		"       pftest swap MB ROUNDS | thp MB | herd N MB exit|kill\n"
		"       pftest threads MB T SECONDS | oom HOLDERS MB ROUNDS | spin SECONDS\n"
		"       pftest hugetlb MB ROUNDS | hugemigrate MB ROUNDS | mrelease MB CPU\n"
		"       pftest lmkd MB reaper-first|at-once|in-exit|exit ROUNDS [UNMAP_MB]\n"
		"       pftest hog NODE MB | pipes STOP_MB | latency SECONDS | stopped MB\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *c;

	if (argc < 3)
		usage();
	c = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (getenv("PFTEST_RUNTIME")) {
		runtime_start = runtime_ns();
		if (atexit(print_runtime))
			die("atexit");
	}
	if (!strcmp(c, "munmap") && argc == 4)
		return do_munmap(arg(argv, 2, 1) << 20, arg(argv, 3, 1));
	if (!strcmp(c, "dontneed") && argc == 4)
		return do_dontneed(arg(argv, 2, 1) << 20, arg(argv, 3, 1));
	if (!strcmp(c, "node") && argc == 5)
		return do_node(arg(argv, 2, 1) << 20, arg(argv, 3, 1),
			       !strcmp(argv[4], "alt") ? NODE_ALT :
			       !strcmp(argv[4], "il") ? NODE_IL :
			       arg(argv, 4, 0));
	if (!strcmp(c, "stopped") && argc == 3)
		return do_stopped(arg(argv, 2, 1) << 20);
	if (!strcmp(c, "exitat") && argc == 3)
		return do_exitat(arg(argv, 2, 1) << 20);
	if (!strcmp(c, "forkexit") && argc == 4)
		return do_forkexit(arg(argv, 2, 1) << 20, arg(argv, 3, 1));
	if (!strcmp(c, "split") && argc == 4)
		return do_split(arg(argv, 2, 2) << 20, arg(argv, 3, 1));
	if (!strcmp(c, "cow") && argc == 4)
		return do_cow(arg(argv, 2, 1) << 20, arg(argv, 3, 1));
	if (!strcmp(c, "file") && argc == 5)
		return do_file(argv[2], arg(argv, 3, 1) << 20, arg(argv, 4, 1));
	if (!strcmp(c, "privfile") && argc == 4)
		return do_privfile(argv[2], arg(argv, 3, 1) << 20);
	if (!strcmp(c, "memfdseal") && argc == 4)
		return do_memfdseal(arg(argv, 2, 1) << 20, arg(argv, 3, 1));
	if (!strcmp(c, "swap") && argc == 4)
		return do_swap(arg(argv, 2, 4) << 20, arg(argv, 3, 1));
	if (!strcmp(c, "thp") && argc == 3)
		return do_thp(arg(argv, 2, 2) << 20);
	if (!strcmp(c, "herd") && argc == 5 &&
	    (!strcmp(argv[4], "exit") || !strcmp(argv[4], "kill")))
		return do_herd(arg(argv, 2, 1), arg(argv, 3, 1) << 20,
			       !strcmp(argv[4], "kill"));
	if (!strcmp(c, "threads") && argc == 5)
		return do_threads(arg(argv, 2, 1) << 20, arg(argv, 3, 1),
				  arg(argv, 4, 1));
	if (!strcmp(c, "oom") && argc == 5)
		return do_oom(arg(argv, 2, 1), arg(argv, 3, 1) << 20,
			      arg(argv, 4, 1));
	if (!strcmp(c, "spin") && argc == 3) {
		double end = now() + arg(argv, 2, 1);

		while (now() < end)
			;
		return 0;
	}
	if (!strcmp(c, "hugetlb") && argc == 4)
		return do_hugetlb(arg(argv, 2, 2) << 20, arg(argv, 3, 1));
	if (!strcmp(c, "hugemigrate") && argc == 4)
		return do_hugemigrate(arg(argv, 2, 2) << 20, arg(argv, 3, 1));
	if (!strcmp(c, "mrelease") && argc == 4)
		return do_mrelease(arg(argv, 2, 1) << 20, arg(argv, 3, 0));
	if (!strcmp(c, "lmkd") && (argc == 5 || argc == 6)) {
		size_t len = arg(argv, 2, 1) << 20;
		size_t unmap = argc == 6 ? arg(argv, 5, 1) << 20 : 0;

		if (unmap >= len)
			die("lmkd: UNMAP_MB must be below MB");
		return do_lmkd(len, unmap, argv[3], arg(argv, 4, 1));
	}
	if (!strcmp(c, "latency") && argc == 3)
		return do_latency(arg(argv, 2, 1));
	if (!strcmp(c, "pipes") && argc == 3)
		return do_pipes(arg(argv, 2, 0) << 10);
	if (!strcmp(c, "hog") && argc == 4)
		return do_hog(arg(argv, 2, 0), arg(argv, 3, 1) << 20);
	usage();
	return 2;
}
