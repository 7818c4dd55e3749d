int counter;
static int counter;
