/* A VLA: stacksave at its block's first VLA, dynalloca, stackrestore at the end. */
int vla(int n) {
    int r = 0;
    {
        int a[n];
        a[0] = n;
        r = a[0] + (int)sizeof(a);
    }
    return r;
}
