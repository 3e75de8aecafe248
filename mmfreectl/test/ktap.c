// SPDX-License-Identifier: GPL-2.0
/*
 * The unit tests of mmfreectl, run on the host: the parts of the tool
 * that neither touch the system nor need the module.  Prints KTAP, the
 * results being counted before the plan is printed, and exits 1 if any
 * test failed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmfreectl.h"
#include "test.h"

static FILE *results;		/* the lines after the plan */
static char *results_buf;
static size_t results_len;
static unsigned int nr_tests, nr_failed;

static void ktap_line(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(results, "%s %u ", prefix, ++nr_tests);
	vfprintf(results, fmt, ap);
	fputc('\n', results);
}

bool ktap_result(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_line(ok ? "ok" : "not ok", fmt, ap);
	va_end(ap);
	nr_failed += !ok;
	return ok;
}

void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", results);
	va_start(ap, fmt);
	vfprintf(results, fmt, ap);
	va_end(ap);
	fputc('\n', results);
}

const char *quote(const char *s, char *buf, size_t size)
{
	size_t len = 0;

	if (!s)
		return "(null)";
	len += snprintf(buf, size, "\"");
	for (; *s && len < size; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			len += snprintf(buf + len, size - len, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			len += snprintf(buf + len, size - len, "\\x%02x", c);
		else
			len += snprintf(buf + len, size - len, "%c", c);
	}
	if (len < size)
		snprintf(buf + len, size - len, "\"");
	return buf;
}

bool ktap_streq(const char *got, const char *want, const char *fmt, ...)
{
	bool ok = got && want ? !strcmp(got, want) : got == want;
	char q[1024];
	va_list ap;

	if (!ok) {
		ktap_diag("got:  %s", quote(got, q, sizeof(q)));
		ktap_diag("want: %s", quote(want, q, sizeof(q)));
	}
	va_start(ap, fmt);
	ktap_line(ok ? "ok" : "not ok", fmt, ap);
	va_end(ap);
	nr_failed += !ok;
	return ok;
}

/* One stream at a time: its output goes to a temporary file. */
static FILE *captured, *captured_stream;
static int saved_fd = -1;

static void capture_begin(FILE *stream)
{
	fflush(stream);
	captured = tmpfile();
	saved_fd = dup(fileno(stream));
	if (!captured || saved_fd < 0 ||
	    dup2(fileno(captured), fileno(stream)) < 0) {
		perror("mmfreectl-test: capturing output");
		exit(2);
	}
	captured_stream = stream;
}

static void capture_end(char *buf, size_t size)
{
	size_t n;

	fflush(captured_stream);
	dup2(saved_fd, fileno(captured_stream));
	close(saved_fd);
	rewind(captured);
	n = fread(buf, 1, size - 1, captured);
	buf[n] = '\0';
	fclose(captured);
}

void capture_stderr_begin(void)
{
	capture_begin(stderr);
}

void capture_stderr_end(char *buf, size_t size)
{
	capture_end(buf, size);
}

void capture_stdout_begin(void)
{
	capture_begin(stdout);
}

void capture_stdout_end(char *buf, size_t size)
{
	capture_end(buf, size);
}

int main(void)
{
	/* As mmfreectl's main() does: messages say "mmfreectl: ". */
	ctl_set_progname();
	results = open_memstream(&results_buf, &results_len);
	if (!results) {
		perror("mmfreectl-test");
		return 2;
	}
	test_modopt();
	test_knob();
	test_sysfs();
	test_output();
	test_json();
	test_format();
	fclose(results);

	printf("KTAP version 1\n1..%u\n%s", nr_tests, results_buf);
	/* As kselftest totals them: an expected failure is no pass. */
	printf("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:0 error:0\n",
	       nr_tests - nr_failed, nr_failed);
	free(results_buf);
	return nr_failed ? 1 : 0;
}
