#define STR(x) #y
