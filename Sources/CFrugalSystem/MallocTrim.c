#include <malloc.h>
#include "CFrugalSystem.h"

int frugal_malloc_trim(void) {
    return malloc_trim(0);
}
