/*
 * A fuzz target: LLVMFuzzerTestOneInput() gets one input of any bytes.
 * libFuzzer calls it (--enable-fuzzing, tests/host/fuzz.sh), or replay.c
 * does for each file given, so that make check runs the corpus through
 * it in every build.  A target abort()s when a property of its parser
 * fails, which both count as a crash.
 */
#ifndef BLKIOTREE_FUZZ_H
#define BLKIOTREE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string, as the parsers that take one read it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		abort();
	for (size_t i = 0; i < size; i++)
		text[i] = data[i];
	text[size] = '\0';
	return text;
}

/* A property of the parser does not hold: say which, and crash. */
#define fuzz_assert(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: %s does not hold\n", __FILE__,	\
			__LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

#endif
