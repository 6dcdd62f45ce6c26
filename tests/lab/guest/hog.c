// SPDX-License-Identifier: GPL-2.0-or-later
// CPU load for the lab's load tests (guest/ppsbench.sh): spins for BURST_US out of every
// PERIOD_US, for SECONDS, at SCHED_FIFO priority PRIO (0: SCHED_OTHER).
//
// Usage: hog PRIO BURST_US PERIOD_US SECONDS
//
// The guest has one vCPU on purpose (docs/lab.md): a hog at a real-time priority above the
// irq/N thread's (SCHED_FIFO 50) holds that thread off the CPU for up to BURST_US, which a
// force-threaded PPS handler's timestamp carries and a hard-IRQ one does not. The bursts end
// (a busy loop that never sleeps would also starve the capture and, past RT throttling, the
// whole guest), and the deadlines are absolute, so the duty cycle does not drift.
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: hog PRIO BURST_US PERIOD_US SECONDS\n");
        return 2;
    }
    int prio = atoi(argv[1]);
    long long burst = atoll(argv[2]) * 1000, period = atoll(argv[3]) * 1000;
    long long end = now_ns() + atoll(argv[4]) * 1000000000LL;
    if (burst <= 0 || period < burst) {
        fprintf(stderr, "hog: need 0 < BURST_US <= PERIOD_US\n");
        return 2;
    }
    if (prio > 0) {
        struct sched_param sp = {.sched_priority = prio};
        if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) {
            perror("hog: sched_setscheduler");
            return 1;
        }
    }
    long long bursts = 0;
    for (long long start = now_ns(); start < end; start += period) {
        while (now_ns() < start + burst) {
        }
        bursts++;
        if (burst < period) {
            long long next = start + period;
            struct timespec ts = {.tv_sec = next / 1000000000LL, .tv_nsec = next % 1000000000LL};
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
        }
    }
    printf("hog prio=%d burst_us=%lld period_us=%lld bursts=%lld\n", prio, burst / 1000,
           period / 1000, bursts);
    return 0;
}
