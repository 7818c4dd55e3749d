/* C11 6.4.4.4, 6.4.5: character constants, string literals, escapes, wide strings. */
#include "test.h"

unsigned long strlen(const char *);
int strcmp(const char *, const char *);
char *strcpy(char *, const char *);
void *memset(void *, int, unsigned long);
void *memcpy(void *, const void *, unsigned long);
int memcmp(const void *, const void *, unsigned long);

typedef int wchar32;

static int count(const char *s, char c) {
    int n = 0;
    for (; *s; s++)
        n += *s == c;
    return n;
}

const char *gmsg = "global";
char gbuf[16] = "init";

int main(void) {
    ASSERT(97, 'a');
    ASSERT(10, '\n');
    ASSERT(0, '\0');
    ASSERT(7, '\a');
    ASSERT(92, '\\');
    ASSERT(39, '\'');
    ASSERT(34, '"');
    ASSERT(65, '\101');
    ASSERT(255, (unsigned char)'\xff');
    ASSERT(-1, (signed char)'\xff');
    ASSERT(4, sizeof('a'));
    ASSERT(4, sizeof("abc"));
    ASSERT(3, strlen("abc"));
    ASSERT(0, strlen(""));
    ASSERT('b', "abc"[1]);
    ASSERT(0, "abc"[3]);
    ASSERT(0, strcmp("con" "cat", "concat"));
    ASSERT(2, count("banana", 'n'));
    ASSERT(6, strlen(gmsg));
    ASSERT('i', gbuf[0]);
    ASSERT(0, gbuf[10]);
    char s[8];
    strcpy(s, "xyz");
    ASSERT(0, strcmp(s, "xyz"));
    memset(s, 'q', 3);
    ASSERT('q', s[2]);
    ASSERT(0, s[3]);
    char t[8];
    memcpy(t, s, 4);
    ASSERT(0, memcmp(t, "qqq", 4));
    ASSERT(1, strcmp("a", "b") < 0);
    ASSERT(5, sizeof("a\0bc"));
    ASSERT(1, strlen("a\0bc"));
    ASSERT(3, strlen("\t\n\x41"));
    ASSERT('A', "\x41"[0]);
    ASSERT(2, sizeof(u"a") / sizeof(u"a"[0]));
    ASSERT(8, sizeof(U"a"));
    ASSERT(8, sizeof(L"a"));
    ASSERT(0x263a, U"\u263a"[0]);
    ASSERT('w', L"wide"[0]);
    ASSERT(0x3b1, u"\u03b1"[0]);
    ASSERT(3, sizeof(u8"ab"));
    const char *p = "hello";
    ASSERT('l', p[2]);
    ASSERT('o', *(p + 4));
    char arr[] = "mutable";
    arr[0] = 'M';
    ASSERT('M', arr[0]);
    ASSERT(8, sizeof(arr));
    return test_done();
}
