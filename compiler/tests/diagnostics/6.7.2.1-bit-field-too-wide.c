struct s { int wide : 40; };
