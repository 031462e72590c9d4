/* hookd-relay, native: a hook entry inside an agent that hands the agent's event to hookd.
 *
 * The same program as the Python relay (client/python/src/hookd/relay.py, the reference:
 * read its docstrings for the why of each rule), byte for byte: it reads stdin, sends one
 * JSON-RPC `relay` request over hookd's Unix socket (the entry's arguments, stdin as a
 * string, the working folder, the environment less hookd's service variables, the
 * failure policy), and writes back the stderr, stdout and exit code hookd computed.
 * When hookd cannot be reached it starts `hookd serve` (the `hookd` program installed
 * beside it) and, failing that, answers as the agent's failing hook from the table
 * generated from the agents' packages (relay_table.h). Any failure of its own is such an
 * answer with one line saying why: it never hangs past its bound, never crashes.
 *
 * Python's text rules, followed exactly: the OS's bytes (arguments, environment, paths)
 * are read as UTF-8 with each undecodable byte as a lone surrogate U+DC80..U+DCFF
 * (Python's surrogateescape), stdin with U+FFFD for each maximal invalid subpart
 * (errors="replace"); text inside the relay is UTF-8 that may hold surrogates (three
 * bytes each, never paired up); it is written as UTF-8 with each surrogate as its
 * `\udcxx` escape, and into JSON as json.dumps writes it. Replies are read as Python's
 * json.loads reads them (NaN and Infinity, at most 4300 digits in an integer, the last
 * of two equal keys, a UTF-8 BOM skipped). */

#define _GNU_SOURCE 1
#define _DARWIN_C_SOURCE 1

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "relay_table.h"

#ifndef RELAY_SOURCE
#define RELAY_SOURCE "unknown"
#endif
#ifndef RELAY_DEPTH /* the build passes these (client/python/native/build.py) */
#define RELAY_DEPTH 3
#define DAEMON_IN_DATA "bin/hookd"
#endif

extern char **environ;

/* What an errno says, in the words of the Python that built the relay (os.strerror: the
 * Python relay's words on this machine, whatever libc the relay is linked with). */
#ifdef HAVE_ERRNO_TEXT
#include "errno_text.h"
static const char *error_text(int number) {
    static char unknown[64];
    if (number > 0 && number < (int)(sizeof ERRNO_TEXT / sizeof *ERRNO_TEXT) && ERRNO_TEXT[number])
        return ERRNO_TEXT[number];
    snprintf(unknown, sizeof unknown, ERRNO_UNKNOWN, number);
    return unknown;
}
#else
#define error_text strerror
#endif

/* -- buffers ------------------------------------------------------------------------- */

struct buf {
    char *p;
    size_t n, cap;
};

static void out_of_memory(void);

static void buf_grow(struct buf *b, size_t more) {
    if (b->n + more + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + more + 1) {
        if (cap > SIZE_MAX / 2) out_of_memory();
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (!p) out_of_memory();
    b->p = p;
    b->cap = cap;
}

static void buf_add(struct buf *b, const void *s, size_t n) {
    buf_grow(b, n);
    if (n) memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

static void buf_char(struct buf *b, char c) { buf_add(b, &c, 1); }

static void buf_fmt(struct buf *b, const char *format, ...) {
    va_list args;
    va_start(args, format);
    char small[128];
    int n = vsnprintf(small, sizeof small, format, args);
    va_end(args);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        buf_add(b, small, (size_t)n);
        return;
    }
    buf_grow(b, (size_t)n);
    va_start(args, format);
    vsnprintf(b->p + b->n, (size_t)n + 1, format, args);
    va_end(args);
    b->n += (size_t)n;
}

static char *buf_take(struct buf *b) {
    buf_grow(b, 0);
    return b->p;
}

/* -- UTF-8, as Python decodes it ------------------------------------------------------ */

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0 with *bad set to the
 * length of the maximal invalid subpart (at least 1). With `surrogates`, encoded
 * surrogates (ED A0..BF xx) are valid, as with Python's "surrogatepass". */
static size_t utf8_len(const unsigned char *s, size_t n, int surrogates, size_t *bad) {
    unsigned char c = s[0];
    size_t need;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED && !surrogates) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        *bad = 1;
        return 0;
    }
    size_t i = 1;
    for (; i <= need; i++) {
        if (i >= n) break;
        unsigned char d = s[i];
        if (i == 1 ? (d < lo || d > hi) : (d < 0x80 || d > 0xBF)) break;
    }
    if (i == need + 1) return need + 1;
    *bad = i;
    return 0;
}

/* The code point of a valid sequence of `len` bytes. */
static uint32_t utf8_point(const unsigned char *s, size_t len) {
    switch (len) {
    case 1: return s[0];
    case 2: return ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
    case 3: return ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    default:
        return ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
               ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
    }
}

static void put_point(struct buf *b, uint32_t cp) {
    char s[4];
    size_t n;
    if (cp < 0x80) {
        s[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        s[0] = (char)(0xC0 | (cp >> 6));
        s[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        s[0] = (char)(0xE0 | (cp >> 12));
        s[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        s[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        s[0] = (char)(0xF0 | (cp >> 18));
        s[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        s[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        s[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    buf_add(b, s, n);
}

/* The OS's bytes as Python's str (surrogateescape). */
static void from_os(struct buf *b, const char *text, size_t n) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < n) {
        size_t start = i;
        while (i < n && s[i] < 0x80) i++;
        if (i > start) buf_add(b, s + start, i - start);
        if (i >= n) break;
        size_t bad = 0, len = utf8_len(s + i, n - i, 0, &bad);
        if (len) {
            buf_add(b, s + i, len);
            i += len;
        } else {
            for (size_t k = 0; k < bad; k++) put_point(b, 0xDC00 + s[i + k]);
            i += bad;
        }
    }
}

static char *os_text(const char *text) {
    struct buf b = {0};
    from_os(&b, text, strlen(text));
    return buf_take(&b);
}

/* Relay text written out: UTF-8, a lone surrogate as its \udcxx escape (Python's
 * encode("utf-8", "backslashreplace")). */
static void put_text(struct buf *b, const char *text, size_t n) {
    const unsigned char *s = (const unsigned char *)text;
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == 0xED && i + 2 < n && s[i + 1] >= 0xA0) {
            buf_add(b, s + start, i - start);
            buf_fmt(b, "\\u%04x", (unsigned)utf8_point(s + i, 3));
            i += 2;
            start = i + 1;
        }
    }
    buf_add(b, s + start, n - start);
}

static const char HEX[] = "0123456789abcdef";

static void put_u(struct buf *b, uint32_t unit) {
    char e[6] = {'\\', 'u', HEX[(unit >> 12) & 15], HEX[(unit >> 8) & 15], HEX[(unit >> 4) & 15],
                 HEX[unit & 15]};
    buf_add(b, e, 6);
}

/* Relay text as a JSON string, as json.dumps writes it (`ascii`: ensure_ascii, every
 * character past 0x7E escaped, as json.dumps does by default; else raw UTF-8 but for
 * surrogates, which stay escapes). */
static void put_json(struct buf *b, const char *text, size_t n, int ascii) {
    const unsigned char *s = (const unsigned char *)text;
    buf_char(b, '"');
    size_t start = 0, i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7F) {
            i++;
            continue;
        }
        if (c >= 0x80 && !ascii && !(c == 0xED && i + 1 < n && s[i + 1] >= 0xA0)) {
            i++;
            continue;
        }
        buf_add(b, s + start, i - start);
        if (c < 0x80) {
            const char *short_form = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n"
                                   : c == '\r' ? "\\r" : c == '\t' ? "\\t" : c == '\b' ? "\\b"
                                   : c == '\f' ? "\\f" : 0;
            if (short_form) buf_str(b, short_form);
            else put_u(b, c);
            i++;
        } else {
            size_t bad = 0, len = utf8_len(s + i, n - i, 1, &bad);
            if (!len) len = 1; /* not relay text: cannot happen */
            uint32_t cp = utf8_point(s + i, len);
            if (cp >= 0x10000) {
                cp -= 0x10000;
                put_u(b, 0xD800 + (cp >> 10));
                put_u(b, 0xDC00 + (cp & 0x3FF));
            } else {
                put_u(b, cp);
            }
            i += len;
        }
        start = i;
    }
    buf_add(b, s + start, n - start);
    buf_char(b, '"');
}

/* stdin as Python's stdin.decode("utf-8", "replace"), as a JSON string. */
static void put_json_replaced(struct buf *b, const char *text, size_t n) {
    const unsigned char *s = (const unsigned char *)text;
    buf_grow(b, n + n / 8 + 2);
    buf_char(b, '"');
    size_t start = 0, i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0x80) {
            size_t bad = 0, len = utf8_len(s + i, n - i, 0, &bad);
            if (len) {
                i += len;
                continue;
            }
            buf_add(b, s + start, i - start);
            buf_str(b, "\xEF\xBF\xBD");
            i += bad;
            start = i;
            continue;
        }
        buf_add(b, s + start, i - start);
        const char *short_form = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n"
                               : c == '\r' ? "\\r" : c == '\t' ? "\\t" : c == '\b' ? "\\b"
                               : c == '\f' ? "\\f" : 0;
        if (short_form) buf_str(b, short_form);
        else put_u(b, c);
        i++;
        start = i;
    }
    buf_add(b, s + start, n - start);
    buf_char(b, '"');
}

/* The number of code points of relay text. */
static size_t points(const char *text, size_t n) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80) count++;
    return count;
}

/* quoted() of hookd/relay.py: single quotes, printable ASCII as is (but ' and \),
 * \t \n \r, and every other character as \xhh, \uhhhh or \Uhhhhhhhh. */
static void put_quoted(struct buf *b, const char *text, size_t n) {
    const unsigned char *s = (const unsigned char *)text;
    buf_char(b, '\'');
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (c == '\'' || c == '\\') {
            buf_char(b, '\\');
            buf_char(b, (char)c);
            i++;
        } else if (c >= 0x20 && c < 0x7F) {
            buf_char(b, (char)c);
            i++;
        } else if (c == '\t' || c == '\n' || c == '\r') {
            buf_str(b, c == '\t' ? "\\t" : c == '\n' ? "\\n" : "\\r");
            i++;
        } else {
            size_t bad = 0, len = c < 0x80 ? 1 : utf8_len(s + i, n - i, 1, &bad);
            if (!len) len = 1;
            uint32_t cp = utf8_point(s + i, len);
            if (cp <= 0xFF) buf_fmt(b, "\\x%02x", (unsigned)cp);
            else if (cp <= 0xFFFF) buf_fmt(b, "\\u%04x", (unsigned)cp);
            else buf_fmt(b, "\\U%08x", (unsigned)cp);
            i += len;
        }
    }
    buf_char(b, '\'');
}

/* -- JSON, as Python's json.loads reads it ------------------------------------------- */

#define INT_DIGITS_MAX 4300 /* sys.int_info.default_max_str_digits */

static const unsigned char *skip_ws(const unsigned char *p, const unsigned char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int is_hex(unsigned char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static uint32_t hex4(const unsigned char *p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        v = v * 16 + (uint32_t)(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* A string at p (p[0] == '"'): its end (past the closing quote), or NULL. */
static const unsigned char *scan_string(const unsigned char *p, const unsigned char *end) {
    p++;
    while (p < end) {
        unsigned char c = *p;
        if (c == '"') return p + 1;
        if (c < 0x20) return NULL;
        if (c == '\\') {
            if (p + 1 >= end) return NULL;
            unsigned char e = p[1];
            if (e == 'u') {
                if (p + 6 > end) return NULL;
                for (int i = 2; i < 6; i++)
                    if (!is_hex(p[i])) return NULL;
                p += 6;
            } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                       e == 'r' || e == 't') {
                p += 2;
            } else {
                return NULL;
            }
        } else if (c >= 0x80) {
            size_t bad = 0, len = utf8_len(p, (size_t)(end - p), 1, &bad);
            if (!len) return NULL;
            p += len;
        } else {
            p++;
        }
    }
    return NULL;
}

/* A number at p: its end, or NULL; *integer says it has no fraction nor exponent. */
static const unsigned char *scan_number(const unsigned char *p, const unsigned char *end,
                                        int *integer) {
    const unsigned char *q = p;
    if (q < end && *q == '-') q++;
    if (q < end && *q == '0') {
        q++;
    } else if (q < end && *q >= '1' && *q <= '9') {
        while (q < end && is_digit(*q)) q++;
    } else {
        return NULL;
    }
    size_t digits = (size_t)(q - p) - (*p == '-');
    *integer = 1;
    if (q + 1 < end && *q == '.' && is_digit(q[1])) {
        *integer = 0;
        q++;
        while (q < end && is_digit(*q)) q++;
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
        const unsigned char *r = q + 1;
        if (r < end && (*r == '+' || *r == '-')) r++;
        if (r < end && is_digit(*r)) {
            *integer = 0;
            while (r < end && is_digit(*r)) r++;
            q = r;
        }
    }
    if (*integer && digits > INT_DIGITS_MAX) return NULL;
    return q;
}

static int starts(const unsigned char *p, const unsigned char *end, const char *word) {
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* One value at p (no leading blanks): its end, or NULL when it is not JSON. Iterative:
 * a reply nested a million deep is read, not a stack overflow. */
static const unsigned char *scan_value(const unsigned char *p, const unsigned char *end) {
    struct buf stack = {0}; /* '[' or '{' per open container */
    const unsigned char *result = NULL;
    for (;;) {
        /* a value at p */
        p = skip_ws(p, end);
        if (p >= end) goto done;
        if (*p == '{' || *p == '[') {
            char open = (char)*p;
            buf_char(&stack, open);
            p = skip_ws(p + 1, end);
            if (p < end && *p == (open == '{' ? '}' : ']')) {
                stack.n--;
                p++;
                goto after_value;
            }
            if (open == '{') {
                if (p >= end || *p != '"' || !(p = scan_string(p, end))) goto done;
                p = skip_ws(p, end);
                if (p >= end || *p != ':') goto done;
                p++;
            }
            continue;
        }
        if (*p == '"') {
            if (!(p = scan_string(p, end))) goto done;
        } else if (starts(p, end, "true")) {
            p += 4;
        } else if (starts(p, end, "false")) {
            p += 5;
        } else if (starts(p, end, "null")) {
            p += 4;
        } else if (starts(p, end, "NaN")) {
            p += 3;
        } else if (starts(p, end, "Infinity")) {
            p += 8;
        } else if (starts(p, end, "-Infinity")) {
            p += 9;
        } else {
            int integer;
            if (!(p = scan_number(p, end, &integer))) goto done;
        }
    after_value:
        for (;;) {
            if (stack.n == 0) {
                result = p;
                goto done;
            }
            char open = stack.p[stack.n - 1];
            p = skip_ws(p, end);
            if (p >= end) goto done;
            if (*p == ',') {
                p++;
                if (open == '{') {
                    p = skip_ws(p, end);
                    if (p >= end || *p != '"' || !(p = scan_string(p, end))) goto done;
                    p = skip_ws(p, end);
                    if (p >= end || *p != ':') goto done;
                    p++;
                }
                break; /* the next value */
            }
            if (*p != (open == '{' ? '}' : ']')) goto done;
            stack.n--;
            p++;
        }
    }
done:
    free(stack.p);
    return result;
}

/* A whole document (json.loads of bytes): where its value starts, or NULL. */
static const unsigned char *json_document(const char *text, size_t n) {
    const unsigned char *p = (const unsigned char *)text, *end = p + n;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) p += 3; /* utf-8-sig */
    /* outside strings only ASCII is JSON; inside, scan_string checks the UTF-8 */
    p = skip_ws(p, end);
    const unsigned char *after = scan_value(p, end);
    if (!after || skip_ws(after, end) != end) return NULL;
    return p;
}

/* A string value's text (escapes decoded, a \uD8xx\uDCxx pair joined), its length in
 * *length (it may hold NULs). */
static char *json_string(const unsigned char *p, const unsigned char *end, size_t *length) {
    struct buf b = {0};
    const unsigned char *close = scan_string(p, end);
    p++;
    const unsigned char *start = p;
    while (p < close - 1) {
        if (*p != '\\') {
            p++;
            continue;
        }
        buf_add(&b, start, (size_t)(p - start));
        unsigned char e = p[1];
        if (e == 'u') {
            uint32_t cp = hex4(p + 2);
            p += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF && p + 6 <= close - 1 && p[0] == '\\' && p[1] == 'u') {
                uint32_t low = hex4(p + 2);
                if (low >= 0xDC00 && low <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    p += 6;
                }
            }
            put_point(&b, cp);
        } else {
            char c = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r'
                   : e == 't' ? '\t' : (char)e;
            buf_char(&b, c);
            p += 2;
        }
        start = p;
    }
    buf_add(&b, start, (size_t)(p - start));
    *length = b.n;
    return buf_take(&b);
}

/* The value of the last member named `key` of the object at p (valid JSON), or NULL. */
static const unsigned char *json_member(const unsigned char *p, const unsigned char *end,
                                        const char *key) {
    const unsigned char *found = NULL;
    if (*p != '{') return NULL;
    p = skip_ws(p + 1, end);
    if (*p == '}') return NULL;
    size_t key_n = strlen(key);
    for (;;) {
        const unsigned char *key_end = scan_string(p, end);
        size_t name_n;
        char *name = json_string(p, end, &name_n);
        int match = name_n == key_n && memcmp(name, key, key_n) == 0;
        free(name);
        p = skip_ws(key_end, end) + 1; /* the colon */
        p = skip_ws(p, end);
        if (match) found = p;
        p = skip_ws(scan_value(p, end), end);
        if (*p == '}') return found;
        p = skip_ws(p + 1, end); /* the comma */
    }
}

static int json_is_string(const unsigned char *v) { return v && *v == '"'; }

/* An integer value (no fraction, no exponent): its literal's end, else NULL. */
static const unsigned char *json_integer(const unsigned char *v, const unsigned char *end) {
    int integer;
    if (!v || !(*v == '-' || is_digit(*v))) return NULL;
    const unsigned char *after = scan_number(v, end, &integer);
    return after && integer ? after : NULL;
}

/* Python's `value == 1`: True, the integer 1, a float equal to 1.0. */
static int json_is_one(const unsigned char *v, const unsigned char *end) {
    if (!v) return 0;
    if (starts(v, end, "true")) return 1;
    if (!(*v == '-' || is_digit(*v))) return 0;
    int integer;
    const unsigned char *after = scan_number(v, end, &integer);
    if (integer) return after - v == 1 && *v == '1';
    size_t n = (size_t)(after - v);
    char *copy = malloc(n + 1);
    if (!copy) out_of_memory();
    memcpy(copy, v, n);
    copy[n] = 0;
    double value = strtod(copy, NULL);
    free(copy);
    return value == 1.0;
}

/* -- the relay's answer ----------------------------------------------------------------- */

struct answer {
    struct buf out, err;
    int code;
};

static int block_policy;
static int n_args;
static char **args;
static struct buf stdin_data;

static const struct relay_facts *facts_of(const char *agent) {
    for (const struct relay_facts *f = AGENTS; f->name; f++)
        if (strcmp(f->name, agent) == 0) return f;
    return NULL;
}

static void failure_message(struct buf *b, const struct buf *reason) {
    buf_str(b, "hookd-relay: ");
    buf_add(b, reason->p, reason->n);
    buf_str(b, block_policy ? " (blocking: " ON_ERROR_ENV "=block)"
                            : " (letting the action go on: " ON_ERROR_ENV "=continue)");
}

static void fill(struct buf *b, const char *template, const struct buf *message) {
    const char *p = template;
    for (;;) {
        const char *slot = strstr(p, "{message");
        if (!slot) break;
        if (strncmp(slot, "{message}", 9) == 0) {
            buf_add(b, p, (size_t)(slot - p));
            buf_add(b, message->p, message->n);
            p = slot + 9;
        } else if (strncmp(slot, "{message_json}", 14) == 0) {
            buf_add(b, p, (size_t)(slot - p));
            put_json(b, message->p, message->n, 1);
            p = slot + 14;
        } else {
            buf_add(b, p, (size_t)(slot + 1 - p));
            p = slot + 1;
        }
    }
    buf_str(b, p);
}

/* The agent's failing (block: blocking) hook, saying `reason` (relay text). */
static void unreachable_answer(struct answer *a, const struct buf *reason) {
    const struct relay_facts *facts = n_args ? facts_of(args[0]) : NULL;
    if (!facts) facts = &EXIT_CODES;
    if (facts->runners[0].event) {
        const unsigned char *v = (const unsigned char *)json_document(stdin_data.p, stdin_data.n);
        const unsigned char *end = (const unsigned char *)stdin_data.p + stdin_data.n;
        v = v ? json_member(v, end, facts->event) : NULL;
        if (json_is_string(v)) {
            size_t event_n;
            char *event = json_string(v, end, &event_n);
            for (const struct relay_runner *r = facts->runners; r->event; r++)
                if (strlen(r->event) == event_n && memcmp(r->event, event, event_n) == 0) {
                    facts = &AGENTS[r->agent];
                    break;
                }
            free(event);
        }
    }
    const struct relay_answer *t = block_policy ? &facts->on_block : &facts->on_continue;
    struct buf message = {0};
    failure_message(&message, reason);
    fill(&a->out, t->out, &message);
    fill(&a->err, t->err, &message);
    a->code = t->code;
    free(message.p);
}

/* -- failing --------------------------------------------------------------------------- */

/* Why the relay could not hand the event over (relay text; empty: it could). */
static struct buf failure;
static int not_running;

static int fail(const char *format, ...) {
    struct buf b = {0};
    va_list args_list;
    va_start(args_list, format);
    char small[512];
    int n = vsnprintf(small, sizeof small, format, args_list);
    va_end(args_list);
    if (n >= 0 && (size_t)n < sizeof small) {
        buf_add(&b, small, (size_t)n);
    } else if (n >= 0) {
        buf_grow(&b, (size_t)n);
        va_start(args_list, format);
        vsnprintf(b.p, (size_t)n + 1, format, args_list);
        va_end(args_list);
        b.n = (size_t)n;
    }
    free(failure.p);
    buf_grow(&b, 0);
    failure = b;
    return -1;
}

static void write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t done = write(fd, p, n);
        if (done < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct pollfd w = {fd, POLLOUT, 0};
                poll(&w, 1, 1000);
                continue;
            }
            return; /* the agent closed it: not the relay's failure */
        }
        p += done;
        n -= (size_t)done;
    }
}

static void out_of_memory(void) {
    static const char line[] = "hookd-relay: out of memory\n";
    write_all(2, line, sizeof line - 1);
    _exit(block_policy ? 2 : 1);
}

/* -- time ------------------------------------------------------------------------------- */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int poll_ms(double seconds) {
    if (seconds <= 0) return 0;
    double ms = seconds * 1000.0 + 1.0;
    return ms > 1e9 ? 1000000000 : (int)ms;
}

/* -- the socket ---------------------------------------------------------------------------- */

static void cloexec(int fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags >= 0) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

static void nonblocking(int fd, int on) {
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK);
}

static int unix_address(struct sockaddr_un *address, socklen_t *length, const char *path) {
    size_t n = strlen(path);
    if (n > sizeof address->sun_path) return -1;
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    memcpy(address->sun_path, path, n);
    *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
    return 0;
}

static int unix_socket(int type) {
#ifdef SOCK_CLOEXEC
    int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
#else
    int fd = socket(AF_UNIX, type, 0);
    if (fd >= 0) cloexec(fd);
#endif
    return fd;
}

/* Whether something accepts connections at path (the lock holder's daemon), within a
 * second (relay.py's ANSWERS_WAIT_S: a hung daemon's full backlog blocks a connect). */
static int answers(const char *path) {
    struct sockaddr_un address;
    socklen_t length;
    if (unix_address(&address, &length, path) < 0) return 0;
    int fd = unix_socket(SOCK_STREAM);
    if (fd < 0) return 0;
    struct timeval bound = {1, 0};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &bound, sizeof bound);
    int r;
    do r = connect(fd, (struct sockaddr *)&address, length);
    while (r < 0 && errno == EINTR);
    close(fd);
    return r == 0;
}

static double wait_s;
static char *socket_path_text; /* relay text */

/* The answer in one line of the reply: 1 with the answer, 0 for another message, -1. */
static int reply_line(const char *line, size_t n, struct answer *a) {
    const unsigned char *v = json_document(line, n);
    const unsigned char *end = (const unsigned char *)line + n;
    if (!v) return fail("hookd at %s sent a reply that is not JSON", socket_path_text);
    if (*v != '{' || !json_is_one(json_member(v, end, "id"), end)) return 0;
    const unsigned char *error = json_member(v, end, "error");
    if (error) {
        struct buf said = {0};
        buf_str(&said, "hookd refused the event: ");
        const unsigned char *message = NULL, *code = NULL, *data = NULL;
        if (*error == '{') {
            message = json_member(error, end, "message");
            code = json_member(error, end, "code");
            data = json_member(error, end, "data");
        }
        size_t text_n;
        if (json_is_string(message)) {
            char *text = json_string(message, end, &text_n);
            buf_add(&said, text, text_n);
            free(text);
        } else {
            buf_str(&said, "(no message)");
        }
        const unsigned char *code_end = json_integer(code, end);
        if (code_end) {
            buf_str(&said, " (");
            if (code_end - code == 2 && code[0] == '-' && code[1] == '0') buf_char(&said, '0');
            else buf_add(&said, code, (size_t)(code_end - code));
            buf_char(&said, ')');
        }
        if (json_is_string(data)) {
            char *text = json_string(data, end, &text_n);
            buf_str(&said, ": ");
            buf_add(&said, text, text_n);
            free(text);
        }
        free(failure.p);
        buf_grow(&said, 0);
        failure = said;
        return -1;
    }
    const unsigned char *result = json_member(v, end, "result");
    if (result && *result == '{') {
        const unsigned char *out = json_member(result, end, "stdout");
        const unsigned char *err = json_member(result, end, "stderr");
        const unsigned char *code = json_member(result, end, "exitCode");
        const unsigned char *code_end = json_integer(code, end);
        if (json_is_string(out) && json_is_string(err) && code_end) {
            size_t text_n;
            char *text = json_string(out, end, &text_n);
            buf_add(&a->out, text, text_n);
            free(text);
            text = json_string(err, end, &text_n);
            buf_add(&a->err, text, text_n);
            free(text);
            /* Python's exit status: the value's low byte when it fits a C long, else 255 */
            int negative = *code == '-';
            const unsigned char *d = code + negative;
            uint64_t value = 0;
            int overflow = 0;
            for (; d < code_end; d++) {
                if (value > (UINT64_MAX - 9) / 10) overflow = 1;
                value = value * 10 + (uint64_t)(*d - '0');
            }
            if (overflow || value > (negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
                a->code = 255;
            else
                a->code = (int)((negative ? (0 - value) : value) & 0xFF);
            return 1;
        }
    }
    return fail("hookd's reply to the relay is not one it can use (is the daemon of another "
                "hookd version? restart it: 'hookd shutdown')");
}

static int late(void) {
    return fail("hookd at %s did not answer within %g s (the relay's bound, " WAIT_ENV
                "); see 'hookd status', or restart it: 'hookd shutdown'",
                socket_path_text, wait_s);
}

/* One `relay` request, and the answer it carries, within wait_s seconds. */
static int call(const char *path, const struct buf *request, struct answer *a) {
    double deadline = now() + wait_s;
    struct sockaddr_un address;
    socklen_t length;
    not_running = 0;
    unix_address(&address, &length, path);
    int fd = unix_socket(SOCK_STREAM);
    if (fd < 0) return fail("cannot reach hookd at %s: %s", socket_path_text, error_text(errno));
    struct timeval bound = {(time_t)wait_s, (int)((wait_s - (double)(time_t)wait_s) * 1e6)};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &bound, sizeof bound);
#ifdef SO_NOSIGPIPE
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on);
#endif
    int r;
    do r = connect(fd, (struct sockaddr *)&address, length);
    while (r < 0 && errno == EINTR);
    if (r < 0 && errno == EINPROGRESS) {
        struct pollfd w = {fd, POLLOUT, 0};
        while (poll(&w, 1, poll_ms(deadline - now())) < 0 && errno == EINTR) continue;
        int error = 0;
        socklen_t size = sizeof error;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size);
        if (!(w.revents & POLLOUT)) error = EAGAIN;
        r = error ? -1 : 0;
        errno = error;
    }
    if (r < 0) {
        int error = errno;
        close(fd);
        if (error == ENOENT || error == ECONNREFUSED || error == ENOTDIR) {
            not_running = 1;
            return fail("hookd is not running (no daemon at %s: %s); start it with 'hookd "
                        "serve'", socket_path_text, error_text(error));
        }
        if (error == EAGAIN || error == EWOULDBLOCK || error == ETIMEDOUT) return late();
        return fail("cannot reach hookd at %s: %s", socket_path_text, error_text(error));
    }
    nonblocking(fd, 1);
    size_t sent = 0;
    int sending = 1;
    struct buf pending = {0};
    size_t scanned = 0;
    int outcome = 0;
    for (;;) {
        double left = deadline - now();
        if (left <= 0) {
            outcome = late();
            break;
        }
        struct pollfd p = {fd, (short)(POLLIN | (sending ? POLLOUT : 0)), 0};
        int ready = poll(&p, 1, poll_ms(left));
        if (ready < 0) {
            if (errno == EINTR) continue;
            outcome = fail("lost the connection to hookd at %s: %s", socket_path_text,
                           error_text(errno));
            break;
        }
        if (ready == 0) continue;
        if (sending && (p.revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t n = send(fd, request->p + sent, request->n - sent, 0);
            if (n > 0) {
                sent += (size_t)n;
                if (sent == request->n) sending = 0;
            } else if (n < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
                if (errno != EPIPE && errno != ECONNRESET) {
                    outcome = fail("lost the connection to hookd at %s: %s", socket_path_text,
                                   error_text(errno));
                    break;
                }
                sending = 0; /* hookd stopped reading: what it said is still to be read */
            }
        }
        if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        buf_grow(&pending, 1 << 16);
        ssize_t n = recv(fd, pending.p + pending.n, 1 << 16, 0);
        if (n < 0 && errno == ECONNRESET) n = 0; /* closed with what was sent unread */
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
            outcome = fail("lost the connection to hookd at %s: %s", socket_path_text,
                           error_text(errno));
            break;
        }
        if (n == 0) { /* the last line may end without a newline */
            if (pending.n) outcome = reply_line(pending.p, pending.n, a);
            if (outcome == 0)
                outcome = fail("hookd at %s closed the connection before answering",
                               socket_path_text);
            break;
        }
        pending.n += (size_t)n;
        char *newline;
        while ((newline = memchr(pending.p + scanned, '\n', pending.n - scanned))) {
            size_t line = (size_t)(newline - pending.p);
            outcome = reply_line(pending.p, line, a);
            if (outcome != 0) break;
            memmove(pending.p, newline + 1, pending.n - line - 1);
            pending.n -= line + 1;
            scanned = 0;
        }
        if (outcome != 0) break;
        scanned = pending.n;
    }
    free(pending.p);
    close(fd);
    return outcome == 1 ? 0 : -1;
}

/* -- starting hookd ----------------------------------------------------------------------- */

/* os.path.dirname */
static char *dir_name(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0;
    size_t all_slashes = 1;
    for (size_t i = 0; i < n; i++)
        if (path[i] != '/') all_slashes = 0;
    if (n && !all_slashes)
        while (n > 0 && path[n - 1] == '/') n--;
    char *head = malloc(n + 1);
    if (!head) out_of_memory();
    memcpy(head, path, n);
    head[n] = 0;
    return head;
}

/* os.path.join(a, b) for a relative b */
static char *join(const char *a, const char *b) {
    struct buf out = {0};
    buf_str(&out, a);
    if (out.n && out.p[out.n - 1] != '/') buf_char(&out, '/');
    buf_str(&out, b);
    return buf_take(&out);
}

static int is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* os.makedirs(name, mode, exist_ok=True): 0, or -1 with errno. */
static int make_dirs(const char *name, mode_t mode) {
    /* os.path.split */
    const char *slash = strrchr(name, '/');
    char *head = dir_name(name);
    char *tail = strdup(slash ? slash + 1 : name);
    if (!head || !tail) out_of_memory();
    if (!*tail) {
        const char *s2 = strrchr(head, '/');
        free(tail);
        tail = strdup(s2 ? s2 + 1 : head);
        char *head_again = dir_name(head);
        free(head);
        head = head_again;
        if (!tail) out_of_memory();
    }
    struct stat st;
    if (*head && *tail && stat(head, &st) != 0) {
        if (make_dirs(head, 0777) < 0 && errno != EEXIST) {
            int error = errno;
            free(head);
            free(tail);
            errno = error;
            return -1;
        }
        if (strcmp(tail, ".") == 0) {
            free(head);
            free(tail);
            return 0;
        }
    }
    free(head);
    free(tail);
    if (mkdir(name, mode) == 0) return 0;
    int error = errno;
    if (is_dir(name)) return 0;
    errno = error;
    return -1;
}

/* Where this program runs from, resolved; NULL when the system cannot say. */
static char *own_path(void) {
#ifdef __APPLE__
    uint32_t size = 0;
    _NSGetExecutablePath(NULL, &size);
    char *raw = malloc(size + 1);
    if (!raw || _NSGetExecutablePath(raw, &size) != 0) {
        free(raw);
        return NULL;
    }
    char *resolved = realpath(raw, NULL);
    free(raw);
    return resolved;
#else
    return realpath("/proc/self/exe", NULL);
#endif
}

/* The `hookd` program installed beside this relay: the relay lives in the installation's
 * data folder, <data>/RELAY_IN_DATA (RELAY_DEPTH folders deep, the build says), its
 * scripts in <data>/DAEMON_IN_DATA. */
static char *daemon_program(void) {
    char *path = own_path();
    if (!path) return strdup(DAEMON_IN_DATA);
    for (int up = 0; up < RELAY_DEPTH; up++) {
        char *folder = dir_name(path);
        free(path);
        path = folder;
    }
    char *program = join(path, DAEMON_IN_DATA);
    free(path);
    return program;
}

static void close_from(int lowest) {
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, lowest, ~0U, 0) == 0) return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (int fd = lowest; fd < max; fd++) close(fd);
}

/* Start `hookd serve` detached; -1 with `failure` set, or with `start_error` set. */
static int spawn(const char *program, const char *path, const char *notify_path, int log_fd,
                 pid_t *pid) {
    int report[2];
    if (pipe(report) < 0) return -1;
    cloexec(report[0]);
    cloexec(report[1]);
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0) {
        int error = errno;
        close(report[0]);
        close(report[1]);
        errno = error;
        return -1;
    }
    /* the environment as it came, with NOTIFY_SOCKET (replacing any) */
    size_t count = 0;
    for (char **e = environ; *e; e++) count++;
    char **env = calloc(count + 2, sizeof *env);
    if (!env) out_of_memory();
    size_t k = 0;
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "NOTIFY_SOCKET=", 14) != 0) env[k++] = *e;
    struct buf notify = {0};
    buf_str(&notify, "NOTIFY_SOCKET=");
    buf_str(&notify, notify_path);
    env[k++] = notify.p;
    env[k] = NULL;
    char *argv[] = {(char *)program, "--socket", (char *)path, "serve", NULL};
    pid_t child = fork();
    if (child == 0) {
        setsid();
        signal(SIGPIPE, SIG_DFL);
#ifdef SIGXFSZ
        signal(SIGXFSZ, SIG_DFL);
#endif
        dup2(devnull, 0);
        dup2(log_fd, 1);
        dup2(log_fd, 2);
        int keep = report[1];
        if (keep != 3) {
            dup2(keep, 3);
            keep = 3;
        }
        cloexec(3);
        close_from(4);
        execve(program, argv, env);
        int error = errno;
        ssize_t w;
        do w = write(keep, &error, sizeof error);
        while (w < 0 && errno == EINTR);
        _exit(127);
    }
    int fork_error = errno;
    close(report[1]);
    close(devnull);
    free(env);
    free(notify.p);
    if (child < 0) {
        close(report[0]);
        errno = fork_error;
        return -1;
    }
    int error = 0;
    ssize_t got;
    do got = read(report[0], &error, sizeof error);
    while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof error) {
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) continue;
        errno = error;
        return -1;
    }
    *pid = child;
    return 0;
}

static int is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* The daemon's own start-up error, from what it just wrote to the log (relay.py's
 * _start_error: lines and blanks of bytes, the last saying "hookd:" or "error"). */
static char *start_error(const char *log_path, off_t offset) {
    int fd = open(log_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct buf data = {0};
    buf_grow(&data, 1 << 16);
    if (lseek(fd, offset, SEEK_SET) < 0) {
        close(fd);
        free(data.p);
        return NULL;
    }
    while (data.n < (1 << 16)) {
        ssize_t n = read(fd, data.p + data.n, (1 << 16) - data.n);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        data.n += (size_t)n;
    }
    close(fd);
    /* bytes.splitlines: \n, \r, \r\n; bytes.strip: ASCII blanks */
    const char *last = NULL, *last_error = NULL;
    size_t last_n = 0, last_error_n = 0;
    size_t i = 0;
    while (i < data.n) {
        size_t start = i;
        while (i < data.n && data.p[i] != '\n' && data.p[i] != '\r') i++;
        size_t stop = i;
        if (i < data.n) i += (data.p[i] == '\r' && i + 1 < data.n && data.p[i + 1] == '\n') ? 2 : 1;
        while (start < stop && is_space((unsigned char)data.p[start])) start++;
        while (stop > start && is_space((unsigned char)data.p[stop - 1])) stop--;
        if (stop == start) continue;
        last = data.p + start;
        last_n = stop - start;
        int says = last_n >= 6 && memcmp(last, "hookd:", 6) == 0;
        for (size_t j = 0; !says && j + 5 <= last_n; j++) {
            says = 1;
            for (size_t k = 0; k < 5; k++) {
                char c = last[j + k];
                if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
                if (c != "error"[k]) {
                    says = 0;
                    break;
                }
            }
        }
        if (says) {
            last_error = last;
            last_error_n = last_n;
        }
    }
    const char *said = last_error ? last_error : last;
    size_t n = last_error ? last_error_n : last_n;
    if (!said) n = 0;
    if (n >= 6 && memcmp(said, "hookd:", 6) == 0) {
        said += 6;
        n -= 6;
        while (n && is_space((unsigned char)*said)) said++, n--;
        while (n && is_space((unsigned char)said[n - 1])) n--;
    }
    struct buf text = {0};
    if (said) {
        /* decoded with errors="replace" */
        const unsigned char *s = (const unsigned char *)said;
        for (size_t j = 0; j < n;) {
            size_t bad = 0, len = utf8_len(s + j, n - j, 0, &bad);
            if (len) {
                buf_add(&text, s + j, len);
                j += len;
            } else {
                buf_str(&text, "\xEF\xBF\xBD");
                j += bad;
            }
        }
    }
    free(data.p);
    buf_grow(&text, 0);
    if (points(text.p, text.n) > START_ERROR_MAX) {
        size_t kept = 0, j = 0;
        for (; j < text.n; j++) {
            if (((unsigned char)text.p[j] & 0xC0) != 0x80) {
                if (kept == START_ERROR_MAX - 3) break;
                kept++;
            }
        }
        text.n = j;
        buf_str(&text, "...");
    }
    return buf_take(&text);
}

static int lock_start(int fd, const char *lock_text) {
    double deadline = now() + SPAWN_WAIT_S;
    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return 0;
        if (errno != EWOULDBLOCK && errno != EINTR) return -2;
        if (now() >= deadline)
            return fail("another hookd-relay has been starting hookd for %g s (it holds %s); "
                        "start it yourself with 'hookd serve'", SPAWN_WAIT_S, lock_text);
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

/* relay.py's start_daemon. */
static int start_daemon(const char *path) {
    char *folder_raw = dir_name(path);
    if (!*folder_raw) {
        free(folder_raw);
        folder_raw = strdup(".");
    }
    char *folder = os_text(folder_raw);
    char *lock_path = join(folder_raw, "spawn.lock");
    char *lock_text = os_text(lock_path);
    struct buf notify_name = {0};
    buf_fmt(&notify_name, "ready.%ld", (long)getpid());
    char *notify_path = join(folder_raw, notify_name.p);
    char *notify_text = os_text(notify_path);
    char *log_path = join(folder_raw, "hookd.log");
    char *log_text = os_text(log_path);
    char *program = daemon_program();
    char *program_text = os_text(program);
    int lock_fd = -1, ready_fd = -1, log_fd = -1, bound = 0, result = -1;
    const char *step_what = "cannot create";
    const char *step_where = folder;
    struct sockaddr_un address;
    socklen_t length;

    if (make_dirs(folder_raw, 0700) < 0) goto os_error;
    step_what = "cannot open";
    step_where = lock_text;
    lock_fd = open(lock_path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (lock_fd < 0) goto os_error;
    int locked = lock_start(lock_fd, lock_text);
    if (locked == -1) goto done;
    if (locked == -2) goto os_error;
    if (answers(path)) {
        result = 0;
        goto done;
    }
    if (unix_address(&address, &length, notify_path) < 0) {
        fail("cannot start hookd: the readiness socket %s is too long for a Unix socket: set "
             "HOOKD_SOCKET (or XDG_RUNTIME_DIR) to a shorter path", notify_text);
        goto done;
    }
    step_what = "cannot listen on";
    step_where = notify_text;
    ready_fd = unix_socket(SOCK_DGRAM);
    if (ready_fd < 0) goto os_error;
    if (unlink(notify_path) < 0 && errno != ENOENT) goto os_error;
    if (bind(ready_fd, (struct sockaddr *)&address, length) < 0) goto os_error;
    bound = 1;
    step_what = "cannot open";
    step_where = log_text;
    log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (log_fd < 0) goto os_error;
    off_t started_at = lseek(log_fd, 0, SEEK_END);
    if (started_at < 0) goto os_error;
    step_what = "cannot run";
    step_where = program_text;
    pid_t pid;
    if (spawn(program, path, notify_path, log_fd, &pid) < 0) goto os_error;
    double deadline = now() + SPAWN_WAIT_S;
    for (;;) {
        double remaining = deadline - now();
        if (remaining <= 0) break;
        struct pollfd p = {ready_fd, POLLIN, 0};
        int ready = poll(&p, 1, poll_ms(remaining < 0.2 ? remaining : 0.2));
        if (ready < 0 && errno != EINTR) {
            step_what = "cannot listen on";
            step_where = notify_text;
            goto os_error;
        }
        if (ready > 0 && (p.revents & POLLIN)) {
            char said[4096];
            ssize_t n = recv(ready_fd, said, sizeof said, 0);
            if (n < 0 && errno != EINTR && errno != EAGAIN) {
                step_what = "cannot listen on";
                step_where = notify_text;
                goto os_error;
            }
            if (n >= 7 && memmem(said, (size_t)n, "READY=1", 7)) {
                result = 0;
                goto done;
            }
        }
        int status;
        pid_t gone = waitpid(pid, &status, WNOHANG);
        if (gone == pid) {
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
            char *said = start_error(log_path, started_at);
            fail("hookd serve exited with code %d at start%s%s (see %s)", code,
                 said && *said ? ": " : "", said ? said : "", log_text);
            free(said);
            goto done;
        }
    }
    fail("hookd did not start within %g s (see %s); start it yourself with 'hookd serve'",
         SPAWN_WAIT_S, log_text);
    goto done;
os_error:
    fail("cannot start hookd: %s %s (%s)", step_what, step_where, error_text(errno));
done:
    if (bound) unlink(notify_path);
    if (ready_fd >= 0) close(ready_fd);
    if (log_fd >= 0) close(log_fd);
    if (lock_fd >= 0) close(lock_fd);
    free(folder_raw);
    free(folder);
    free(lock_path);
    free(lock_text);
    free(notify_name.p);
    free(notify_path);
    free(notify_text);
    free(log_path);
    free(log_text);
    free(program);
    free(program_text);
    return result;
}

/* -- the relay ------------------------------------------------------------------------------ */

/* os.environ's first value of `name` (NULL when unset). */
static const char *env_get(const char *name) { return getenv(name); }

/* relay.py's socket_path; `use_override` 0: as if HOOKD_SOCKET were unset. */
static char *socket_path_of(int use_override) {
    const char *given = env_get("HOOKD_SOCKET");
    if (use_override && given && *given) return strdup(given);
    const char *xdg = env_get("XDG_RUNTIME_DIR");
    if (xdg && xdg[0] == '/') {
        char *folder = join(xdg, "hookd");
        char *path = join(folder, "hookd.sock");
        free(folder);
        return path;
    }
    const char *tmp = env_get("TMPDIR");
    if (!tmp || !*tmp) tmp = "/tmp";
    struct buf name = {0};
    buf_fmt(&name, "hookd-%ld", (long)getuid());
    char *folder = join(tmp, name.p);
    char *path = join(folder, "hookd.sock");
    free(folder);
    free(name.p);
    return path;
}

static char *socket_path(void) { return socket_path_of(1); }

static double wait_bound(void) {
    const char *given = env_get(WAIT_ENV);
    if (!given || !is_digit((unsigned char)given[0])) return WAIT_S;
    size_t n = strlen(given);
    if (!is_digit((unsigned char)given[n - 1])) return WAIT_S;
    int points_seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (given[i] == '.') {
            if (points_seen++) return WAIT_S;
        } else if (!is_digit((unsigned char)given[i])) {
            return WAIT_S;
        }
    }
    double value = strtod(given, NULL);
    return value > 0 && value <= WAIT_MAX_S ? value : WAIT_S;
}

static int service_variable(const char *entry) {
    for (const char *const *prefix = SERVICE_PREFIXES; *prefix; prefix++)
        if (strncmp(entry, *prefix, strlen(*prefix)) == 0) return 1;
    return 0;
}

static void put_os_json(struct buf *b, const char *text, size_t n) {
    struct buf t = {0};
    from_os(&t, text, n);
    put_json(b, t.p ? t.p : "", t.n, 0);
    free(t.p);
}

/* The `relay` request, as relay.py's json.dumps writes its meaning. */
static int request_of(struct buf *request) {
    char *cwd = getcwd(NULL, 0);
    if (!cwd) return fail("cannot tell the working folder: %s", error_text(errno));
    buf_grow(request, stdin_data.n + 4096);
    buf_str(request, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"relay\",\"params\":{\"agent\":");
    put_os_json(request, args[0], strlen(args[0]));
    buf_str(request, ",\"args\":[");
    for (int i = 1; i < n_args; i++) {
        if (i > 1) buf_char(request, ',');
        put_os_json(request, args[i], strlen(args[i]));
    }
    buf_str(request, "],\"stdin\":");
    put_json_replaced(request, stdin_data.p ? stdin_data.p : "", stdin_data.n);
    buf_str(request, ",\"cwd\":");
    put_os_json(request, cwd, strlen(cwd));
    free(cwd);
    buf_str(request, ",\"env\":{");
    int first = 1;
    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq || service_variable(*e)) continue;
        size_t key_n = (size_t)(eq - *e);
        int seen = 0; /* os.environ keeps a name's first value */
        for (char **f = environ; f < e && !seen; f++)
            if (strncmp(*f, *e, key_n + 1) == 0) seen = 1;
        if (seen) continue;
        if (!first) buf_char(request, ',');
        first = 0;
        put_os_json(request, *e, key_n);
        buf_char(request, ':');
        put_os_json(request, eq + 1, strlen(eq + 1));
    }
    buf_str(request, block_policy ? "},\"onError\":\"block\"}}\n" : "},\"onError\":\"continue\"}}\n");
    return 0;
}

/* -- deferring to the service ------------------------------------------------------------ */

/* relay.py's with_notice: `notice` (relay text) after a successful answer's stderr. */
static void with_notice(struct answer *a, const struct buf *notice) {
    if (notice->n && a->code == 0) buf_add(&a->err, notice->p, notice->n);
}

/* relay.py's off_default. */
static void off_default(struct buf *notice, const char *path) {
    const char *why = NULL;
    const char *given = env_get("HOOKD_SOCKET");
    char *fallback = socket_path_of(0);
    if (given && *given && strcmp(path, fallback) != 0) why = "HOOKD_SOCKET is set";
#ifdef __linux__
    const char *xdg = env_get("XDG_RUNTIME_DIR");
    if (!why && !(xdg && xdg[0] == '/')) why = "XDG_RUNTIME_DIR is not set";
#endif
    free(fallback);
    if (!why) return;
    char *text = os_text(path);
    buf_fmt(notice, "hookd-relay: started hookd on %s, not on the default socket (%s): "
            "clients without that setting, 'hookd status' among them, do not see it; use "
            "one socket everywhere, or run hookd as a service: 'hookd service install'\n",
            text, why);
    free(text);
}

/* relay.py's service_runtime_dir. */
static char *service_runtime_dir(void) {
    const char *given = env_get("XDG_RUNTIME_DIR");
    if (given && given[0] == '/') return strdup(given);
    struct buf b = {0};
    buf_fmt(&b, "/run/user/%ld", (long)getuid());
    return buf_take(&b);
}

struct service {
    char *socket;     /* the service's socket */
    char *argv[5];    /* the command that starts it */
    struct buf said;  /* that command, as one line of relay text */
};

static void service_free(struct service *s) {
    free(s->socket);
    for (int i = 0; s->argv[i]; i++) free(s->argv[i]);
    free(s->said.p);
}

/* relay.py's installed_service: 1 with `s` filled when the marker file is there. */
static int installed_service(struct service *s) {
    memset(s, 0, sizeof *s);
    const char *home = env_get("HOME");
    if (!home || home[0] != '/') return 0;
    char *marker;
#if defined(__APPLE__)
    char *agents = join(home, "Library/LaunchAgents");
    marker = join(agents, "dev.hookd.plist");
    free(agents);
    s->socket = socket_path();
    struct buf target = {0};
    buf_fmt(&target, "gui/%ld/dev.hookd", (long)getuid());
    s->argv[0] = strdup("launchctl");
    s->argv[1] = strdup("kickstart");
    s->argv[2] = buf_take(&target);
#elif defined(__linux__)
    const char *config_env = env_get("XDG_CONFIG_HOME");
    char *config = config_env && config_env[0] == '/' ? strdup(config_env) : join(home, ".config");
    char *units = join(config, "systemd/user");
    marker = join(units, "hookd.socket");
    free(config);
    free(units);
    char *runtime = service_runtime_dir();
    char *folder = join(runtime, "hookd");
    s->socket = join(folder, "hookd.sock");
    free(runtime);
    free(folder);
    s->argv[0] = strdup("systemctl");
    s->argv[1] = strdup("--user");
    s->argv[2] = strdup("start");
    s->argv[3] = strdup("hookd.socket");
#else
    return 0;
#endif
    struct stat st;
    int found = stat(marker, &st) == 0;
    free(marker);
    if (!found) {
        service_free(s);
        memset(s, 0, sizeof *s);
        return 0;
    }
    for (int i = 0; s->argv[i]; i++) {
        if (i) buf_char(&s->said, ' ');
        buf_str(&s->said, s->argv[i]);
    }
    buf_grow(&s->said, 0);
    return 1;
}

/* Run the service manager's command (stdio on /dev/null; systemctl finds the user bus
 * through XDG_RUNTIME_DIR): 0 with its exit code, -1 with errno when it cannot run,
 * -2 when it outlived SPAWN_WAIT_S (killed). */
static int run_command(char *const argv[], int *code) {
    int report[2];
    if (pipe(report) < 0) return -1;
    cloexec(report[0]);
    cloexec(report[1]);
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull < 0) {
        int error = errno;
        close(report[0]);
        close(report[1]);
        errno = error;
        return -1;
    }
    char *runtime = NULL;
    if (strcmp(argv[0], "systemctl") == 0) {
        struct buf entry = {0};
        char *folder = service_runtime_dir();
        buf_str(&entry, "XDG_RUNTIME_DIR=");
        buf_str(&entry, folder);
        free(folder);
        runtime = buf_take(&entry);
    }
    pid_t child = fork();
    if (child == 0) {
        signal(SIGPIPE, SIG_DFL);
        if (runtime) putenv(runtime);
        dup2(devnull, 0);
        dup2(devnull, 1);
        dup2(devnull, 2);
        execvp(argv[0], argv);
        int error = errno;
        ssize_t w;
        do w = write(report[1], &error, sizeof error);
        while (w < 0 && errno == EINTR);
        _exit(127);
    }
    int fork_error = errno;
    close(report[1]);
    close(devnull);
    free(runtime);
    if (child < 0) {
        close(report[0]);
        errno = fork_error;
        return -1;
    }
    int error = 0;
    ssize_t got;
    do got = read(report[0], &error, sizeof error);
    while (got < 0 && errno == EINTR);
    close(report[0]);
    int status;
    if (got == (ssize_t)sizeof error) {
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) continue;
        errno = error;
        return -1;
    }
    double deadline = now() + SPAWN_WAIT_S;
    for (;;) {
        pid_t gone = waitpid(child, &status, WNOHANG);
        if (gone == child) break;
        if (now() >= deadline) {
            kill(child, SIGKILL);
            while (waitpid(child, &status, 0) < 0 && errno == EINTR) continue;
            return -2;
        }
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    *code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    return 0;
}

/* relay.py's start_service. */
static int start_service(const struct service *s) {
    int code = 0;
    int ran = run_command(s->argv, &code);
    if (ran == -2)
        return fail("hookd runs as a service, and '%s' did not finish within %g s: see 'hookd "
                    "service status'", s->said.p, SPAWN_WAIT_S);
    if (ran == -1)
        return fail("hookd runs as a service, and '%s' cannot run (%s): see 'hookd service "
                    "status'", s->said.p, error_text(errno));
    if (code != 0)
        return fail("hookd runs as a service, and '%s' exited with code %d: see 'hookd "
                    "service status'", s->said.p, code);
    double deadline = now() + SPAWN_WAIT_S;
    while (!answers(s->socket)) {
        if (now() >= deadline) {
            char *text = os_text(s->socket);
            fail("hookd runs as a service, and nothing listens on %s %g s after '%s': see "
                 "'hookd service status'", text, SPAWN_WAIT_S, s->said.p);
            free(text);
            return -1;
        }
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return 0;
}

/* relay.py's through_service. */
static int through_service(const struct service *s, const char *path, const struct buf *request,
                           struct answer *a) {
    struct buf notice = {0};
    int elsewhere = strcmp(s->socket, path) != 0;
    if (elsewhere) {
        char *here = os_text(path);
        char *there = os_text(s->socket);
        buf_fmt(&notice, "hookd-relay: no hookd on %s (HOOKD_SOCKET); the service's on %s "
                "answered: unset HOOKD_SOCKET, or set it to that\n", here, there);
        free(here);
        free(there);
    }
    int result = 0;
    if (!(elsewhere && answers(s->socket))) result = start_service(s);
    if (result == 0) {
        free(socket_path_text);
        socket_path_text = os_text(s->socket);
        result = call(s->socket, request, a);
        if (result == 0) with_notice(a, &notice);
    }
    free(notice.p);
    return result;
}

static int relay(struct answer *a) {
    struct buf request = {0};
    if (request_of(&request) < 0) return -1;
    char *path = socket_path();
    socket_path_text = os_text(path);
    struct sockaddr_un address;
    socklen_t length;
    int result;
    if (unix_address(&address, &length, path) < 0) {
        result = fail("the socket path %s is too long for a Unix socket (%zu bytes, at most "
                      "%zu): set HOOKD_SOCKET (or XDG_RUNTIME_DIR) to a shorter one",
                      socket_path_text, strlen(path), sizeof address.sun_path);
        goto done;
    }
    wait_s = wait_bound();
    result = call(path, &request, a);
    if (result == 0 || !not_running) goto done;
    const char *no_spawn = env_get(NO_SPAWN_ENV);
    if (no_spawn && strcmp(no_spawn, "1") == 0) goto done;
    struct service service;
    if (installed_service(&service)) {
        result = through_service(&service, path, &request, a);
        service_free(&service);
        goto done;
    }
    result = start_daemon(path);
    if (result == 0) result = call(path, &request, a);
    if (result == 0) {
        struct buf notice = {0};
        off_default(&notice, path);
        with_notice(a, &notice);
        free(notice.p);
    }
done:
    free(path);
    free(request.p);
    return result;
}

static int bad_arguments(void) {
    if (n_args == 0)
        return fail("no agent named (hookd-relay AGENT, AGENT one of " AGENT_LIST "): " FIX);
    const struct relay_facts *facts = facts_of(args[0]);
    struct buf said = {0};
    if (!facts) {
        char *agent = os_text(args[0]);
        buf_str(&said, "unknown agent ");
        put_quoted(&said, agent, strlen(agent));
        buf_str(&said, " (one of " AGENT_LIST "): " FIX);
        free(agent);
    } else if (n_args - 1 > facts->args) {
        struct buf extra = {0};
        for (int i = 1; i < n_args; i++) {
            if (i > 1) buf_char(&extra, ' ');
            from_os(&extra, args[i], strlen(args[i]));
        }
        buf_fmt(&said, "too many arguments for %s (", facts->name);
        put_quoted(&said, extra.p, extra.n);
        buf_str(&said, "): " FIX);
        free(extra.p);
    } else {
        return 0;
    }
    free(failure.p);
    buf_grow(&said, 0);
    failure = said;
    return -1;
}

static void read_stdin(void) {
    for (;;) {
        buf_grow(&stdin_data, 1 << 16);
        ssize_t n = read(0, stdin_data.p + stdin_data.n, stdin_data.cap - stdin_data.n - 1);
        if (n > 0) {
            stdin_data.n += (size_t)n;
            continue;
        }
        if (n == 0) return;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            struct pollfd r = {0, POLLIN, 0};
            poll(&r, 1, -1);
            continue;
        }
        if (errno == EBADF) return; /* no stdin at all: an empty event */
        fail("cannot read the event on stdin: %s", error_text(errno));
        return;
    }
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    /* a closed 0, 1 or 2 is /dev/null: nothing read, nothing written (Python's None
     * streams), and no file of the relay's own takes its number */
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) open("/dev/null", fd ? O_WRONLY : O_RDONLY);
    args = argv + 1;
    n_args = argc > 0 ? argc - 1 : 0;
    if (n_args && (strcmp(args[0], "-h") == 0 || strcmp(args[0], "--help") == 0)) {
        write_all(1, USAGE "\n", sizeof USAGE);
        return 0;
    }
    if (n_args && strcmp(args[0], "--version") == 0) {
        static const char line[] = "hookd-relay " RELAY_VERSION " (native, source " RELAY_SOURCE ")\n";
        write_all(1, line, sizeof line - 1);
        return 0;
    }
    const char *policy = env_get(ON_ERROR_ENV);
    block_policy = policy && strcmp(policy, "block") == 0;
    struct answer a = {{0}, {0}, 0};
    read_stdin();
    if (failure.n || bad_arguments() < 0 || relay(&a) < 0) {
        free(a.out.p);
        free(a.err.p);
        memset(&a, 0, sizeof a);
        unreachable_answer(&a, &failure);
    }
    struct buf out = {0};
    if (a.err.n) {
        put_text(&out, a.err.p, a.err.n);
        write_all(2, out.p, out.n);
    }
    if (a.out.n) {
        out.n = 0;
        put_text(&out, a.out.p, a.out.n);
        write_all(1, out.p, out.n);
    }
    return a.code;
}
