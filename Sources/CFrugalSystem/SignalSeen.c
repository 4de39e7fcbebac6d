#include <signal.h>
#include <string.h>
#include "CFrugalSystem.h"

/* The handler libdispatch installed for each watched signal, called after noting the signal. */
static struct sigaction frugal_previous[65];
static volatile sig_atomic_t frugal_seen = 0;

static void frugal_note_signal(int signal, siginfo_t *info, void *context) {
    if (frugal_seen == 0) frugal_seen = signal;
    struct sigaction *previous = &frugal_previous[signal];
    if (previous->sa_flags & SA_SIGINFO) {
        if (previous->sa_sigaction) previous->sa_sigaction(signal, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN && previous->sa_handler != NULL) {
        previous->sa_handler(signal);
    }
}

int frugal_note_signal_install(int signal) {
    if (signal <= 0 || signal >= 65) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = frugal_note_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(signal, &action, &frugal_previous[signal]);
}

int frugal_signal_seen(void) { return frugal_seen; }
