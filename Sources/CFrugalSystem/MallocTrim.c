#include <malloc.h>
#include "CFrugalSystem.h"

int frugal_malloc_trim(size_t minimum_free) {
    /* mallinfo2 counts the free chunks of every arena without a system call; malloc_trim makes
       one madvise per free range, which is the cost worth skipping when there is little to give. */
    struct mallinfo2 info = mallinfo2();
    if (info.fordblks < minimum_free) return 0;
    return malloc_trim(0);
}
