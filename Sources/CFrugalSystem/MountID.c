#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "CFrugalSystem.h"

#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

int frugal_mount_id(int dirfd, const char *name, unsigned long long *mount_id) {
    struct statx info;
    int flags = AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | (name[0] == 0 ? AT_EMPTY_PATH : 0);
    if (statx(dirfd, name, flags, STATX_MNT_ID, &info) != 0) return -errno;
    if (!(info.stx_mask & STATX_MNT_ID)) return -ENOSYS;
    *mount_id = info.stx_mnt_id;
    return 0;
}
