/* Runner containment: writes 64 MiB to stdout and exits 0; the runner keeps
   only its cap and flags the rest as dropped. */
#include <string.h>
#include <unistd.h>
int main(void) {
    static char line[4096];
    memset(line, 'x', sizeof line);
    for (int i = 0; i < 16384; i++)
        if (write(1, line, sizeof line) != (long)sizeof line)
            return 1;
    return 0;
}
