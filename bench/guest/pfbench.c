// SPDX-License-Identifier: GPL-2.0
/*
 * pfbench: time how long the kernel takes to give memory back.
 *
 *   pfbench munmap MB [REPS]     touch MB of anonymous memory, time munmap
 *   pfbench exit MB [REPS]       fork a child that touches MB and waits;
 *                                time SIGKILL until waitpid returns
 *   pfbench zap MB [REPS]        as munmap, with every page pinned (an
 *                                io_uring fixed buffer): the kernel zaps
 *                                and unmaps exactly as usual but frees
 *                                nothing (the zap, without the free);
 *                                after the timing, unpins and waits until
 *                                the memory is free again
 *   pfbench exitzap MB [REPS]    as exit, likewise: the child pinned its
 *                                pages, and its ring goes after its mm
 *   pfbench small N KB           time N x (mmap, touch, munmap) of KB each
 *   pfbench forkexit N           time N x fork of a small process + waitpid
 *   pfbench busy MB [REPS [HOGS]] as munmap, but with HOGS (default 2)
 *                                CPU hogs running during the munmap: they
 *                                start after the touch, so only the timed
 *                                part competes with them; also prints the
 *                                CPU time the munmap used, which the
 *                                hogs' share of the CPUs does not blur
 *   pfbench spin SECONDS         burn CPU (a CPU hog)
 *   pfbench reap MB [REPS]       as exit, also timing until the memory is
 *                                back (see avail_kb(), avail_target()),
 *                                sampled every AVAIL_POLL_MS; the child
 *                                touches its memory on CPU 0, then may
 *                                run anywhere
 *   pfbench mrelease MB [REPS]   as reap, but a reaper thread on CPU 1
 *                                kills through the child's pidfd and reaps
 *                                its memory with process_mrelease(), as
 *                                lmkd and systemd-oomd do
 *   pfbench info                 print "avail_poll_ms N" and "avail_counts
 *                                WHAT" (what avail_kb() adds up, in words)
 *   pfbench avail                print avail_kb()
 *   pfbench overkill HOGS MB MIN_MB INTERVAL_MS WAIT
 *                                an OOM daemon as earlyoom is: HOGS children
 *                                each touch MB, 16 MiB at a time; every
 *                                INTERVAL_MS the daemon reads avail_kb()
 *                                and, below MIN_MB, SIGKILLs the child with
 *                                the most resident memory, then sleeps the
 *                                interval (WAIT 1: first waits until the
 *                                victim's pidfd is readable and mmfreectl
 *                                wait returns).  Prints "overkill HOGS MB
 *                                <kills> <needed> <back>": kills made, the
 *                                fewest that make room (from the sizes),
 *                                seconds from the first kill until
 *                                avail_kb() was above MIN_MB again (read
 *                                at each look, and when the wait returns)
 *   pfbench term PID BASE_KB     SIGTERM to PID (not a child: a server
 *                                being shut down), time until it exits and
 *                                until avail_kb() is back to BASE_KB
 *
 * Prints one line per repetition: "<what> <MB> <seconds>" (small and
 * forkexit: "<what> <N> <seconds>"; busy: "busy <MB> <seconds> <CPU
 * seconds>"; reap and mrelease: "<what> <MB> <exit> <avail> <reaper>",
 * the reaper's time 0 for reap; term: "term <PID> <exit> <avail> 0").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/io_uring.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* This thread's CPU time, user and system: what the munmap itself used. */
static double cpu_now(void)
{
	return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

static char *touch(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	for (i = 0; i < len; i += 4096)
		p[i] = 1;
	return p;
}

static void spin(double seconds)
{
	double end = now() + seconds;
	volatile unsigned long x = 0;
	long i;

	while (now() < end)
		for (i = 0; i < 100000; i++)
			x++;
}

/*
 * Pin every page of [p, p + len) as io_uring fixed buffers (1 GiB each at
 * most): an extra reference that unmapping does not drop, so a munmap or
 * exit zaps and unmaps the pages as usual, accounting included, but frees
 * none.  Return: the ring, whose release unpins them.
 */
static int pin(char *p, size_t len)
{
	struct io_uring_params params;
	struct iovec iov[64];
	size_t off, gib = 1UL << 30;
	int n = 0, fd;

	memset(&params, 0, sizeof(params));
	fd = syscall(__NR_io_uring_setup, 1, &params);
	if (fd < 0) {
		perror("io_uring_setup");
		exit(1);
	}
	for (off = 0; off < len; off += gib, n++) {
		if (n == 64) {
			fprintf(stderr, "pfbench: at most 64 GiB can be pinned\n");
			exit(1);
		}
		iov[n].iov_base = p + off;
		iov[n].iov_len = len - off < gib ? len - off : gib;
	}
	if (syscall(__NR_io_uring_register, fd, IORING_REGISTER_BUFFERS,
		    iov, n)) {
		perror("io_uring_register");
		exit(1);
	}
	return fd;
}

static long memfree_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * A ring is torn down by a kernel worker after its last close: wait (up
 * to 60 s) until free memory is within a quarter of @len of @kb, so that
 * the next run does not overlap the unpinned pages being freed.
 */
static void wait_memfree(long kb, size_t len)
{
	long slack = (long)(len >> 12);	/* a quarter of len, in kB */
	double end = now() + 60;
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	while (memfree_kb() < kb - slack && now() < end)
		nanosleep(&tick, NULL);
}

#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_process_mrelease
#define SYS_process_mrelease 448
#endif

static long memavail_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * Pages on the per-CPU free lists, in kB: free, yet not in MemAvailable
 * (NR_FREE_PAGES counts the buddy allocator's pages only).  Since 6.7 the
 * lists size themselves: during a large free they grow to tens of
 * thousands of pages and drain over seconds, so MemAvailable alone says
 * the memory is back long after any allocation could have had it.
 * /proc/zoneinfo prints them as "count:", one per zone and CPU.
 */
static long pcp_kb(void)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	long n, pages = 0;
	char line[256];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " count: %ld", &n) == 1)
			pages += n;
	fclose(f);
	return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

/* What "the memory is back" counts: MemAvailable and the per-CPU lists. */
static long avail_kb(void)
{
	return memavail_kb() + pcp_kb();
}

/*
 * "The memory is back": avail_kb() has regained 95% of what it lost
 * between @base (before the memory was taken) and @now (just before the
 * kill).  Not 100%: other small allocations come and go.
 */
static long avail_target(long base, long now)
{
	return now + (base - now) * 95 / 100;
}

/*
 * avail_kb() >= @target, reading /proc/zoneinfo only when MemAvailable
 * alone falls short: printing a zone there holds its zone->lock, which
 * the free being measured needs too.
 */
static int avail_reached(long target)
{
	long kb = memavail_kb();

	return kb >= target || kb + pcp_kb() >= target;
}

static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* One CPU only: then the placement is simply not enforced. */
	sched_setaffinity(0, sizeof(set), &set);
}

/* How often avail_kb() is sampled (ms); also the resolution of "avail". */
#define AVAIL_POLL_MS 10

/*
 * Wait for the process behind @pidfd to exit and for avail_kb() to
 * reach @target, whichever comes last; record both times (seconds after
 * @t0) in @exit_s and @avail_s, for 20 s at most (then the missing time
 * is -1).  The exit wakes poll() at once; avail_kb() is read every
 * AVAIL_POLL_MS only: reading /proc is slow under TCG, and a
 * poller that kept its CPU busy would leave mmfree no idle CPU
 * (pagefree/idle_only) and make it free inline.
 */
static void wait_exit_avail(int pidfd, long target, double t0,
			    double *exit_s, double *avail_s)
{
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	struct timespec tick = { 0, AVAIL_POLL_MS * 1000 * 1000 };
	double end = t0 + 20;

	*exit_s = *avail_s = -1;
	while ((*exit_s < 0 || *avail_s < 0) && now() < end) {
		if (*exit_s < 0) {
			if (poll(&pfd, 1, AVAIL_POLL_MS) > 0)
				*exit_s = now() - t0;
		} else {
			nanosleep(&tick, NULL);
		}
		if (*avail_s < 0 && avail_reached(target))
			*avail_s = now() - t0;
	}
}

struct reaper {
	int pidfd;
	double t0, reap_s;
	int started;	/* set with release order once t0 is */
};

/* The reaper: on the other CPU, kill, then reap the victim's memory. */
static void *reaper_main(void *arg)
{
	struct reaper *r = arg;
	int tries = 0;

	pin_cpu(1);
	r->t0 = now();
	__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
	if (syscall(SYS_pidfd_send_signal, r->pidfd, SIGKILL, NULL, 0))
		perror("pidfd_send_signal");
	/*
	 * EINVAL: the victim is not yet seen exiting (the fatal signal marks
	 * it at once, so this is rare); ESRCH: it already dropped its mm,
	 * nothing is left to reap.  Either way the reaper returns.
	 */
	while (syscall(SYS_process_mrelease, r->pidfd, 0) && errno == EINVAL &&
	       ++tries < 1000)
		;
	r->reap_s = now() - r->t0;
	return NULL;
}

/* reap and mrelease: see the top of the file. */
static int reap(const char *what, long mb, long reps, int mrelease)
{
	size_t len = (size_t)mb << 20;
	long i;

	for (i = 0; i < reps; i++) {
		long base = avail_kb(), target;
		struct reaper r = { .reap_s = 0 };
		double exit_s, avail_s;
		int fd[2], st;
		pthread_t th;
		pid_t pid;
		char c;

		if (pipe(fd))
			return 1;
		pid = fork();
		if (pid < 0)
			return 1;
		if (!pid) {
			cpu_set_t all;
			int cpu;

			/*
			 * Touched on CPU 0, the reaper's other CPU; then free to
			 * run anywhere again: pagefree/idle_only offloads only
			 * while a CPU the task may run on is idle.
			 */
			pin_cpu(0);
			touch(len);
			CPU_ZERO(&all);
			for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
				CPU_SET(cpu, &all);
			sched_setaffinity(0, sizeof(all), &all);
			if (write(fd[1], "x", 1) != 1)
				_exit(1);
			pause();
			_exit(0);
		}
		close(fd[1]);
		if (read(fd[0], &c, 1) != 1)
			return 1;
		close(fd[0]);
		r.pidfd = syscall(SYS_pidfd_open, pid, 0);
		if (r.pidfd < 0) {
			perror("pidfd_open");
			return 1;
		}
		target = avail_target(base, avail_kb());
		if (mrelease) {
			if (pthread_create(&th, NULL, reaper_main, &r))
				return 1;
			while (!__atomic_load_n(&r.started, __ATOMIC_ACQUIRE))
				sched_yield();
		} else {
			r.t0 = now();
			kill(pid, SIGKILL);
		}
		wait_exit_avail(r.pidfd, target, r.t0, &exit_s, &avail_s);
		if (mrelease)
			pthread_join(th, NULL);
		waitpid(pid, &st, 0);
		close(r.pidfd);
		printf("%s %ld %.6f %.6f %.6f\n", what, mb, exit_s, avail_s,
		       r.reap_s);
		fflush(stdout);
	}
	return 0;
}

/* term: see the top of the file. */
static int term(pid_t pid, long base)
{
	int pidfd = syscall(SYS_pidfd_open, pid, 0);
	double t0, exit_s, avail_s;
	long target;

	if (pidfd < 0) {
		perror("pidfd_open");
		return 1;
	}
	target = avail_target(base, avail_kb());
	t0 = now();
	if (syscall(SYS_pidfd_send_signal, pidfd, SIGTERM, NULL, 0)) {
		perror("pidfd_send_signal");
		return 1;
	}
	wait_exit_avail(pidfd, target, t0, &exit_s, &avail_s);
	printf("term %d %.6f %.6f 0\n", (int)pid, exit_s, avail_s);
	return 0;
}

/* Resident kB of @pid (0 once it has none): what earlyoom ranks by. */
static long rss_kb(pid_t pid)
{
	char path[64];
	long size = 0, rss = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/statm", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%ld %ld", &size, &rss) != 2)
		rss = 0;
	fclose(f);
	return rss * 4;
}

#define OVERKILL_MAX 16

static void die_usage(void);

/* One hog: touch mb MiB, 16 MiB at a time, then say so and wait. */
static void overkill_hog(long mb, int done)
{
	long i;

	for (i = 0; i < mb; i += 16) {
		touch(16UL << 20);
		usleep(20000);
	}
	if (write(done, "d", 1) != 1)
		exit(1);
	for (;;)
		pause();
}

static int overkill(long hogs, long mb, long min_mb, long interval_ms,
		    int wait_back)
{
	pid_t pid[OVERKILL_MAX];
	int pidfd[OVERKILL_MAX], alive[OVERKILL_MAX], fd[2];
	long i, kills = 0, needed, avail, left, done = 0;
	double first = 0, back = -1;
	char c;

	if (hogs < 1 || hogs > OVERKILL_MAX || min_mb < 1 || interval_ms < 1)
		die_usage();
	avail = avail_kb();
	/* The fewest kills that leave the rest room above MIN_MB. */
	left = hogs * mb * 1024 - (avail - min_mb * 1024);
	needed = left <= 0 ? 0 : (left + mb * 1024 - 1) / (mb * 1024);
	if (pipe(fd) || fcntl(fd[0], F_SETFL, O_NONBLOCK))
		return 1;
	for (i = 0; i < hogs; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return 1;
		if (!pid[i]) {
			close(fd[0]);
			overkill_hog(mb, fd[1]);
		}
		pidfd[i] = syscall(SYS_pidfd_open, pid[i], 0);
		alive[i] = 1;
	}
	close(fd[1]);
	while (done + kills < hogs) {
		usleep(interval_ms * 1000);
		while (read(fd[0], &c, 1) == 1)
			done++;
		avail = avail_kb();
		if (kills && back < 0 && avail > min_mb * 1024)
			back = now() - first;
		if (avail >= min_mb * 1024)
			continue;
		/* Kill the biggest, as earlyoom does. */
		{
			long big = -1, rss, bigrss = -1;
			struct pollfd p;

			for (i = 0; i < hogs; i++) {
				if (!alive[i])
					continue;
				rss = rss_kb(pid[i]);
				if (rss > bigrss) {
					bigrss = rss;
					big = i;
				}
			}
			if (big < 0)
				break;
			if (syscall(SYS_pidfd_send_signal, pidfd[big], SIGKILL, NULL, 0))
				return 1;
			alive[big] = 0;
			if (!kills++)
				first = now();
			back = -1;
			if (!wait_back)
				continue;
			p.fd = pidfd[big];
			p.events = POLLIN;
			poll(&p, 1, 60000);
			/* Nothing in flight in mmfree's pool (0 where it is not loaded). */
			if (system("mmfreectl wait --timeout 60 2>/dev/null") == -1)
				return 1;
			/*
			 * Memory is back when the wait returns, not only at the
			 * next check an interval later: time it here.
			 */
			if (avail_kb() > min_mb * 1024)
				back = now() - first;
		}
	}
	/* Until memory is back after the last kill (at most 30 s). */
	while (kills && back < 0 && now() - first < 30) {
		if (avail_kb() > min_mb * 1024)
			back = now() - first;
		else
			usleep(10000);
	}
	for (i = 0; i < hogs; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
		close(pidfd[i]);
	}
	close(fd[0]);
	printf("overkill %ld %ld %ld %ld %.3f\n", hogs, mb, kills, needed, back);
	return 0;
}

static void die_usage(void)
{
	fprintf(stderr, "usage: pfbench munmap|exit|zap|exitzap MB [REPS] | busy MB [REPS [HOGS]] | small N KB | forkexit N | spin S |\n"
		"       reap|mrelease MB [REPS] | term PID BASE_KB | info | avail |\n"
		"       overkill HOGS MB MIN_MB INTERVAL_MS WAIT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long a, reps, i;

	if (argc == 2 && !strcmp(argv[1], "info")) {
		printf("avail_poll_ms %d\navail_counts MemAvailable plus the pages on the per-CPU free lists (/proc/zoneinfo count:)\n",
		       AVAIL_POLL_MS);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "avail")) {
		printf("%ld\n", avail_kb());
		return 0;
	}
	if (argc == 7 && !strcmp(argv[1], "overkill"))
		return overkill(atol(argv[2]), atol(argv[3]), atol(argv[4]),
				atol(argv[5]), atol(argv[6]) != 0);
	if (argc < 3)
		die_usage();
	a = atol(argv[2]);
	reps = argc > 3 ? atol(argv[3]) : 1;
	if (a <= 0 || reps <= 0)
		die_usage();

	if (!strcmp(argv[1], "munmap") || !strcmp(argv[1], "zap")) {
		size_t len = (size_t)a << 20;
		int zap = !strcmp(argv[1], "zap");

		for (i = 0; i < reps; i++) {
			long kb = zap ? memfree_kb() : 0;
			char *p = touch(len);
			int ring = zap ? pin(p, len) : -1;
			double t = now();

			if (munmap(p, len)) {
				perror("munmap");
				return 1;
			}
			t = now() - t;
			if (zap) {
				close(ring);
				wait_memfree(kb, len);
			}
			printf("%s %ld %.6f\n", argv[1], a, t);
			fflush(stdout);
		}
	} else if (!strcmp(argv[1], "exit") || !strcmp(argv[1], "exitzap")) {
		size_t len = (size_t)a << 20;
		int zap = !strcmp(argv[1], "exitzap");

		for (i = 0; i < reps; i++) {
			long kb = zap ? memfree_kb() : 0;
			int fd[2], st;
			char c;
			pid_t pid;
			double t;

			if (pipe(fd))
				return 1;
			pid = fork();
			if (pid < 0)
				return 1;
			if (!pid) {
				char *p = touch(len);

				/* exit_mm() zaps before exit_files() unpins. */
				if (zap)
					pin(p, len);
				if (write(fd[1], "x", 1) != 1)
					_exit(1);
				pause();
				_exit(0);
			}
			close(fd[1]);
			if (read(fd[0], &c, 1) != 1)
				return 1;
			close(fd[0]);
			t = now();
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			t = now() - t;
			if (zap)
				wait_memfree(kb, len);
			printf("%s %ld %.6f\n", argv[1], a, t);
			fflush(stdout);
		}
	} else if (!strcmp(argv[1], "busy")) {
		size_t len = (size_t)a << 20;
		long nhogs = argc > 4 ? atol(argv[4]) : 2, h;
		pid_t hogs[64];
		struct timespec settle = { 0, 300 * 1000 * 1000 };

		if (nhogs < 1 || nhogs > 64)
			die_usage();
		for (i = 0; i < reps; i++) {
			char *p = touch(len);
			double t, c;

			/*
			 * The hogs must not share the region: their exit would
			 * free it, and the munmap would only drop references.
			 */
			if (madvise(p, len, MADV_DONTFORK)) {
				perror("madvise");
				return 1;
			}
			for (h = 0; h < nhogs; h++) {
				hogs[h] = fork();
				if (hogs[h] < 0) {
					perror("fork");
					return 1;
				}
				if (!hogs[h]) {
					spin(3600);
					_exit(0);
				}
			}
			/* Let the scheduler spread the hogs over the CPUs. */
			nanosleep(&settle, NULL);
			c = cpu_now();
			t = now();
			if (munmap(p, len)) {
				perror("munmap");
				return 1;
			}
			t = now() - t;
			c = cpu_now() - c;
			for (h = 0; h < nhogs; h++)
				kill(hogs[h], SIGKILL);
			for (h = 0; h < nhogs; h++)
				waitpid(hogs[h], NULL, 0);
			printf("busy %ld %.6f %.6f\n", a, t, c);
			fflush(stdout);
		}
	} else if (!strcmp(argv[1], "small")) {
		size_t len = (size_t)reps << 10;
		double t = now();

		for (i = 0; i < a; i++)
			munmap(touch(len), len);
		printf("small %ld %.6f\n", a, now() - t);
	} else if (!strcmp(argv[1], "forkexit")) {
		double t = now();

		for (i = 0; i < a; i++) {
			pid_t pid = fork();

			if (!pid)
				_exit(0);
			waitpid(pid, NULL, 0);
		}
		printf("forkexit %ld %.6f\n", a, now() - t);
	} else if (!strcmp(argv[1], "reap") || !strcmp(argv[1], "mrelease")) {
		return reap(argv[1], a, reps, !strcmp(argv[1], "mrelease"));
	} else if (!strcmp(argv[1], "term")) {
		return term(a, reps);
	} else if (!strcmp(argv[1], "spin")) {
		spin(a);
	} else {
		die_usage();
	}
	return 0;
}
