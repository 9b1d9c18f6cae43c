// glibc declarations that Swift's Glibc module does not export.
#include <malloc.h>
