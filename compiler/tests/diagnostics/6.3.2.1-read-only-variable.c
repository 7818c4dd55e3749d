const int limit = 10;
void f(void) { limit = 3; }
