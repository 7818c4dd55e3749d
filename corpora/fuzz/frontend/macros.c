#define CAT(a,b) a##b
#define STR(x) #x
#define F(x, ...) g(x, ## __VA_ARGS__)
int CAT(x,1) = sizeof(STR(a b));
int h(void){ return F(1) + F(2,3); }
