/*
 * Minimal TAP producer for the unit tests (automake's tap-driver.sh reads
 * it).  Each check prints "ok N - description" or "not ok N - ...", the
 * plan comes at the end; main() returns tap_done().
 */
#ifndef BLKIOTREE_TAP_H
#define BLKIOTREE_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

__attribute__((format(printf, 2, 3)))
static bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	return cond;
}

#define is_int(got, want, ...) do {					\
	long long got_ = (got), want_ = (want);				\
	if (!ok(got_ == want_, __VA_ARGS__))				\
		printf("#   got %lld, want %lld\n", got_, want_);	\
} while (0)

/* percentages: the arithmetic is exact to far better than 0.005 */
#define is_share(got, want, ...) do {					\
	double got_ = (got), want_ = (want);				\
	if (!ok(fabs(got_ - want_) < 0.005, __VA_ARGS__))		\
		printf("#   got %.4f, want %.4f\n", got_, want_);	\
} while (0)

#define is_str(got, want, ...) do {					\
	const char *got_ = (got), *want_ = (want);			\
	if (!ok(got_ && !strcmp(got_, want_), __VA_ARGS__))		\
		printf("#   got \"%s\"\n#  want \"%s\"\n",		\
		       got_ ? got_ : "(null)", want_);			\
} while (0)

static int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
