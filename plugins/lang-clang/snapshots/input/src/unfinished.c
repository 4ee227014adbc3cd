#if defined(X
int broken(void) { return "never closed
