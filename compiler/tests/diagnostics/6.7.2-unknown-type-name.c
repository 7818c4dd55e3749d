int main(void) { foo bar; }
