/* &&, || and ?: are control flow; the value crosses blocks through a slot. */
int f(int a, int b);
int g(int x, int y) {
    int r = x && f(x, y);
    r += x || y;
    return x ? r : f(y, 0);
}
