struct s { int a; };
struct s { long b; };
