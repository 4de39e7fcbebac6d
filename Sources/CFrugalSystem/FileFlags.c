#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "CFrugalSystem.h"

int frugal_clear_immutable(int dirfd, const char *name) {
    struct stat info;
    int flags = name[0] == 0 ? AT_EMPTY_PATH : 0;
    if (fstatat(dirfd, name, &info, AT_SYMLINK_NOFOLLOW | flags) != 0) return -errno;
    // Only files and directories: opening a device or a FIFO could block or act on it.
    if (!S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode)) return 0;
    int fd = name[0] == 0 ? dup(dirfd) : openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return -errno;
    int attributes = 0;
    int result = 0;
    if (ioctl(fd, FS_IOC_GETFLAGS, &attributes) != 0) {
        result = -errno;
    } else if (attributes & (FS_IMMUTABLE_FL | FS_APPEND_FL)) {
        attributes &= ~(FS_IMMUTABLE_FL | FS_APPEND_FL);
        if (ioctl(fd, FS_IOC_SETFLAGS, &attributes) != 0) result = -errno;
    }
    close(fd);
    return result;
}
