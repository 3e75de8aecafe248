// SPDX-License-Identifier: GPL-2.0
/*
 * pfbench: time how long the kernel takes to give memory back.
 *
 *   pfbench munmap MB [REPS]     touch MB of anonymous memory, time munmap
 *   pfbench exit MB [REPS]       fork a child that touches MB and waits;
 *                                time SIGKILL until waitpid returns
 *   pfbench zap MB [REPS]        as munmap, with a forked child still
 *                                mapping every page: the kernel unmaps
 *                                and drops the same references but frees
 *                                nothing (the zap, without the free)
 *   pfbench exitzap MB [REPS]    as exit, likewise: the child's own child
 *                                still maps its pages
 *   pfbench small N KB           time N x (mmap, touch, munmap) of KB each
 *   pfbench forkexit N           time N x fork of a small process + waitpid
 *   pfbench busy MB [REPS [HOGS]] as munmap, but with HOGS (default 2)
 *                                CPU hogs running during the munmap: they
 *                                start after the touch, so only the timed
 *                                part competes with them; also prints the
 *                                CPU time the munmap used, which the
 *                                hogs' share of the CPUs does not blur
 *   pfbench spin SECONDS         burn CPU (a CPU hog)
 *
 * Prints one line per repetition: "<what> <MB> <seconds>" (small and
 * forkexit: "<what> <N> <seconds>"; busy: "busy <MB> <seconds> <CPU
 * seconds>").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
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

/* A child that keeps the caller's pages mapped until killed. */
static pid_t sharer(void)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (!pid) {
		pause();
		_exit(0);
	}
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void die_usage(void)
{
	fprintf(stderr, "usage: pfbench munmap|exit|zap|exitzap MB [REPS] | busy MB [REPS [HOGS]] | small N KB | forkexit N | spin S\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long a, reps, i;

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
			char *p = touch(len);
			pid_t other = zap ? sharer() : 0;
			double t = now();

			if (munmap(p, len)) {
				perror("munmap");
				return 1;
			}
			t = now() - t;
			if (other)
				reap(other);
			printf("%s %ld %.6f\n", argv[1], a, t);
			fflush(stdout);
		}
	} else if (!strcmp(argv[1], "exit") || !strcmp(argv[1], "exitzap")) {
		size_t len = (size_t)a << 20;
		int zap = !strcmp(argv[1], "exitzap");

		/* The child's sharer is reparented here when the child dies. */
		if (zap && prctl(PR_SET_CHILD_SUBREAPER, 1)) {
			perror("prctl");
			return 1;
		}
		for (i = 0; i < reps; i++) {
			int fd[2], st;
			pid_t pid, other = 0;
			double t;

			if (pipe(fd))
				return 1;
			pid = fork();
			if (pid < 0)
				return 1;
			if (!pid) {
				touch(len);
				other = zap ? sharer() : 0;
				if (write(fd[1], &other, sizeof(other)) !=
				    sizeof(other))
					_exit(1);
				pause();
				_exit(0);
			}
			close(fd[1]);
			if (read(fd[0], &other, sizeof(other)) != sizeof(other))
				return 1;
			close(fd[0]);
			t = now();
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			t = now() - t;
			if (other)
				reap(other);
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
	} else if (!strcmp(argv[1], "spin")) {
		spin(a);
	} else {
		die_usage();
	}
	return 0;
}
