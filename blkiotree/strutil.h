/* Small string helpers shared by the parsers. */
#ifndef BLKIOTREE_STRUTIL_H
#define BLKIOTREE_STRUTIL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Parse a whole string as a decimal integer.  Returns 0, -EINVAL when the
 * text is not a number (empty, trailing garbage) or -ERANGE when it does
 * not fit a long long.
 */
int str_to_ll(const char *text, long long *value);

/* "MAJ:MIN" -> numbers; false unless the whole text is that form. */
bool str_to_devnum(const char *text, unsigned *major, unsigned *minor);

/*
 * @len bytes of @text, printable on one line of a message: control
 * characters as \n, \t or \xNN, and '\\' and '"' escaped so that the
 * text can be quoted.  The caller frees it.
 */
char *str_escape(const char *text, size_t len);

/*
 * The whole text of a file, NUL-terminated, in *@text (caller frees): read
 * whole because one read of a kernel file is one consistent picture.
 * Returns 0 or an errno value.
 */
int str_read_file(const char *path, char **text);

/* Like strdup() and snprintf() into fresh memory, but abort on ENOMEM. */
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xcalloc(size_t n, size_t size);
void *xreallocarray(void *ptr, size_t n, size_t size);

#endif
