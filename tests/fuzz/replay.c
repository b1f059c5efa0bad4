/*
 * main() of a fuzz target built without libFuzzer: each file given is
 * one input, read whole (NUL bytes too) and passed once, as a libFuzzer
 * binary treats file arguments.  tests/fuzz/corpus.sh runs the corpus
 * through it in make check.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "fuzz.h"

static uint8_t *read_input(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t got;

	*size = 0;
	if (!f)
		return NULL;
	do {
		data = realloc(data, *size + 4096);
		if (!data)
			abort();
		got = fread(data + *size, 1, 4096, f);
		*size += got;
	} while (got == 4096);
	if (ferror(f)) {
		free(data);
		data = NULL;
	}
	fclose(f);
	return data;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		size_t size;
		uint8_t *data = read_input(argv[i], &size);

		if (!data) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		LLVMFuzzerTestOneInput(data, size);
		free(data);
	}
	return 0;
}
