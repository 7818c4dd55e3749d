/* Runner containment: never ends; the wall-clock timeout must stop it. */
int main(void) {
    volatile unsigned long n = 0;
    for (;;)
        n++;
}
