// zlib, for measuring how far the origin server's bodies deflate (network.compact-transfers).
// Foundation on Linux has no compression API; Debian's zlib1g-dev provides zlib.h and libz.
#include <zlib.h>
