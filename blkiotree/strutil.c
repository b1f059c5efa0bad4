/* Small string and allocation helpers. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strutil.h"

int str_to_ll(const char *text, long long *value)
{
	char *end;
	long long v;

	/* strtoll() skips leading blanks; a value with them is not a number */
	if (!text || !*text || (*text != '-' && *text != '+' &&
				(*text < '0' || *text > '9')))
		return -EINVAL;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*value = v;
	return 0;
}

bool str_to_devnum(const char *text, unsigned *major, unsigned *minor)
{
	long long maj, min;
	const char *colon = strchr(text, ':');
	char buf[32];

	if (!colon || (size_t)(colon - text) >= sizeof(buf))
		return false;
	memcpy(buf, text, colon - text);
	buf[colon - text] = '\0';
	if (str_to_ll(buf, &maj) || str_to_ll(colon + 1, &min))
		return false;
	if (maj < 0 || min < 0 || maj > UINT_MAX || min > UINT_MAX)
		return false;
	*major = maj;
	*minor = min;
	return true;
}

char *str_escape(const char *text, size_t len)
{
	/* the longest escape, \xNN, is four bytes */
	char *out = xcalloc(4 * len + 1, 1), *o = out;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = text[i];

		if (c == '\n')
			o += sprintf(o, "\\n");
		else if (c == '\t')
			o += sprintf(o, "\\t");
		else if (c == '\\' || c == '"')
			o += sprintf(o, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			o += sprintf(o, "\\x%02x", c);
		else
			*o++ = c;
	}
	*o = '\0';
	return out;
}

int str_read_file(const char *path, char **text)
{
	FILE *f = fopen(path, "re");
	size_t len = 0, got;
	char buf[4096];
	int err;

	if (!f)
		return errno;
	*text = xcalloc(1, 1);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		*text = xreallocarray(*text, len + got + 1, 1);
		memcpy(*text + len, buf, got);
		len += got;
	}
	(*text)[len] = '\0';
	err = ferror(f) ? EIO : 0;
	fclose(f);
	if (err) {
		free(*text);
		*text = NULL;
	}
	return err;
}

static void out_of_memory(void)
{
	fputs("blkiotree: out of memory\n", stderr);
	abort();
}

char *xstrdup(const char *s)
{
	char *copy = strdup(s);

	if (!copy)
		out_of_memory();
	return copy;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		out_of_memory();
	return s;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xreallocarray(void *ptr, size_t n, size_t size)
{
	void *p = reallocarray(ptr, n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}
