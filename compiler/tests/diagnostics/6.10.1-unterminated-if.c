#if 1
int x;
