/* Runner containment: forks children that would live forever, prints their
   pids and exits; the runner must kill them with the process group. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 3; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (;;)
                pause();
        }
        printf("%d\n", (int)pid);
    }
    fflush(stdout);
    return 7;
}
