/* `%` needs integer operands; a complex integer is not one. */
_Complex int rem(_Complex int a) {
    return a % 2;
}
