/* switch: small case ranges expanded, large ones as a compare chain. */
int classify(int v) {
    switch (v) {
    case 1: return 10;
    case 3 ... 5: return 20;
    case 100 ... 1000: return 30;
    default: return 0;
    }
}
