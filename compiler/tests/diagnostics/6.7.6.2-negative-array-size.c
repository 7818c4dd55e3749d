int table[2 - 5];
