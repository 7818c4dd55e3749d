struct later;
struct later instance;
