/* _Complex applies to arithmetic types only (GNU adds the integer ones). */
struct s { int a; };
_Complex int ok;
_Complex void bad;
