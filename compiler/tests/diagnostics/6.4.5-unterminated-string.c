int f(void) {
	char *s = "abc;
	return 0;
}
