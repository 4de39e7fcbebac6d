#include "FrugalTaskStats.h"
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <sys/socket.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#define FRUGAL_GENL_DATA(header) ((char *)NLMSG_DATA(header) + GENL_HDRLEN)
#define FRUGAL_NLA_DATA(attribute) ((char *)(attribute) + NLA_HDRLEN)
#define FRUGAL_NLA_NEXT(attribute) ((struct nlattr *)((char *)(attribute) + NLA_ALIGN((attribute)->nla_len)))

static int send_command(int fd, uint16_t type, uint8_t command, uint16_t attribute, const void *data, int length, int flags) {
    struct { struct nlmsghdr header; struct genlmsghdr generic; char payload[256]; } message;
    if (length + NLA_HDRLEN > (int)sizeof message.payload) { errno = EINVAL; return -1; }
    memset(&message, 0, sizeof message);
    message.header.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
    message.header.nlmsg_type = type;
    message.header.nlmsg_flags = (uint16_t)(NLM_F_REQUEST | flags);
    message.generic.cmd = command;
    message.generic.version = 1;
    struct nlattr *next = (struct nlattr *)((char *)&message + message.header.nlmsg_len);
    next->nla_type = attribute;
    next->nla_len = (uint16_t)(length + NLA_HDRLEN);
    memcpy(FRUGAL_NLA_DATA(next), data, (size_t)length);
    message.header.nlmsg_len += NLA_ALIGN(next->nla_len);
    struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
    ssize_t sent;
    do { sent = sendto(fd, &message, message.header.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel); } while (sent < 0 && errno == EINTR);
    return sent < 0 ? -1 : 0;
}

/* Waits for the kernel's answer to a request: its first message, or -1 with the error it carries. */
static int receive_reply(int fd, char *buffer, int size) {
    ssize_t got;
    do { got = recv(fd, buffer, (size_t)size, 0); } while (got < 0 && errno == EINTR);
    if (got < 0) return -1;
    struct nlmsghdr *header = (struct nlmsghdr *)buffer;
    if (!NLMSG_OK(header, got)) { errno = EPROTO; return -1; }
    if (header->nlmsg_type == NLMSG_ERROR) {
        int error = ((struct nlmsgerr *)NLMSG_DATA(header))->error;
        if (error != 0) { errno = -error; return -1; }
    }
    return (int)got;
}

int frugal_taskstats_open(const char *cpumask) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
    if (fd < 0) return -1;
    /* Exits come in bursts (a shell script's children): a large buffer keeps them. */
    int bytes = 4 << 20;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof bytes) != 0)
        (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
    struct sockaddr_nl local = { .nl_family = AF_NETLINK };
    if (bind(fd, (struct sockaddr *)&local, sizeof local) != 0) goto fail;
    char buffer[4096];
    if (send_command(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME, TASKSTATS_GENL_NAME,
                     (int)strlen(TASKSTATS_GENL_NAME) + 1, 0) != 0) goto fail;
    int got = receive_reply(fd, buffer, sizeof buffer);
    if (got < 0) goto fail;
    struct nlmsghdr *header = (struct nlmsghdr *)buffer;
    uint16_t family = 0;
    int left = (int)header->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
    for (struct nlattr *attribute = (struct nlattr *)FRUGAL_GENL_DATA(header); left >= NLA_HDRLEN && attribute->nla_len >= NLA_HDRLEN;
         left -= NLA_ALIGN(attribute->nla_len), attribute = FRUGAL_NLA_NEXT(attribute)) {
        if (attribute->nla_type == CTRL_ATTR_FAMILY_ID) memcpy(&family, FRUGAL_NLA_DATA(attribute), sizeof family);
    }
    if (family == 0) { errno = ENOENT; goto fail; }
    /* With an acknowledgement: without CAP_NET_ADMIN the kernel refuses (EPERM) only in it. */
    if (send_command(fd, family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, cpumask, (int)strlen(cpumask) + 1, NLM_F_ACK) != 0) goto fail;
    if (receive_reply(fd, buffer, sizeof buffer) < 0) goto fail;
    return fd;
fail:;
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

static void fill(frugal_task_exit *record, const struct taskstats *stats, int isProcessTotal) {
    memset(record, 0, sizeof *record);
    record->tid = stats->ac_pid;
    record->tgid = stats->ac_tgid;
    record->ppid = stats->ac_ppid;
    memcpy(record->comm, stats->ac_comm, sizeof record->comm < sizeof stats->ac_comm ? sizeof record->comm : sizeof stats->ac_comm);
    record->comm[sizeof record->comm - 1] = 0;
    record->voluntarySwitches = stats->nvcsw;
    record->involuntarySwitches = stats->nivcsw;
    record->cpuMicroseconds = stats->ac_utime + stats->ac_stime;
    record->readBytes = stats->read_bytes;
    record->writeBytes = stats->write_bytes;
    record->writeCharacters = stats->write_char;
    record->writeSyscalls = stats->write_syscalls;
    record->peakResidentKiB = stats->hiwater_rss;
    record->elapsedMicroseconds = stats->ac_etime;
    record->exitCode = stats->ac_exitcode;
    record->isProcessTotal = isProcessTotal;
    record->cpuDelayNanoseconds = stats->cpu_delay_total;
}

int frugal_taskstats_receive(int fd, frugal_task_exit *records, int capacity) {
    char buffer[16384];
    ssize_t got;
    do { got = recv(fd, buffer, sizeof buffer, 0); } while (got < 0 && errno == EINTR);
    if (got < 0) return -1;
    int count = 0;
    int remaining = (int)got;
    for (struct nlmsghdr *header = (struct nlmsghdr *)buffer; NLMSG_OK(header, remaining); header = NLMSG_NEXT(header, remaining)) {
        if (header->nlmsg_type == NLMSG_ERROR || header->nlmsg_type == NLMSG_DONE) continue;
        int left = (int)header->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
        for (struct nlattr *outer = (struct nlattr *)FRUGAL_GENL_DATA(header); left >= NLA_HDRLEN && outer->nla_len >= NLA_HDRLEN;
             left -= NLA_ALIGN(outer->nla_len), outer = FRUGAL_NLA_NEXT(outer)) {
            if (outer->nla_type != TASKSTATS_TYPE_AGGR_PID && outer->nla_type != TASKSTATS_TYPE_AGGR_TGID) continue;
            int innerLeft = outer->nla_len - NLA_HDRLEN;
            for (struct nlattr *inner = (struct nlattr *)FRUGAL_NLA_DATA(outer); innerLeft >= NLA_HDRLEN && inner->nla_len >= NLA_HDRLEN;
                 innerLeft -= NLA_ALIGN(inner->nla_len), inner = FRUGAL_NLA_NEXT(inner)) {
                if (inner->nla_type != TASKSTATS_TYPE_STATS || count >= capacity) continue;
                /* An older kernel's struct is shorter: copy what it sent, zero the rest. */
                struct taskstats stats;
                memset(&stats, 0, sizeof stats);
                size_t length = (size_t)(inner->nla_len - NLA_HDRLEN);
                memcpy(&stats, FRUGAL_NLA_DATA(inner), length < sizeof stats ? length : sizeof stats);
                fill(&records[count++], &stats, outer->nla_type == TASKSTATS_TYPE_AGGR_TGID);
            }
        }
    }
    return count;
}
