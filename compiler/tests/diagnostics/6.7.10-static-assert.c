struct header { char tag; int len; };
_Static_assert(sizeof(struct header) == 5, "header must be packed");
