// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gpioevents: read N rising-edge events from one GPIO line through the character device's v1
 * uAPI (what libgpiod 1.6 uses) and print their kernel timestamps (CLOCK_MONOTONIC on 6.1).
 *
 * Usage: gpioevents CHIPDEV LINE COUNT [TIMEOUT_SECONDS]
 * Output: "event SEQUENCE TIMESTAMP_NS" per event.
 * Exit: 0 when COUNT events were read, 1 on a timeout or error, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: %s CHIPDEV LINE COUNT [TIMEOUT_SECONDS]\n", argv[0]);
        return 2;
    }
    const char *path = argv[1];
    long line = strtol(argv[2], NULL, 10);
    long count = strtol(argv[3], NULL, 10);
    long timeout_s = argc == 5 ? strtol(argv[4], NULL, 10) : 3;
    if (line < 0 || count <= 0 || timeout_s <= 0) {
        fprintf(stderr, "gpioevents: LINE must be >= 0, COUNT and TIMEOUT_SECONDS positive\n");
        return 2;
    }
    int fd = open(path, O_RDWR);
    if (fd < 0) {
        fprintf(stderr, "gpioevents: %s: %s\n", path, strerror(errno));
        return 1;
    }
    struct gpioevent_request req;
    memset(&req, 0, sizeof req);
    req.lineoffset = (unsigned)line;
    req.handleflags = GPIOHANDLE_REQUEST_INPUT;
    req.eventflags = GPIOEVENT_REQUEST_RISING_EDGE;
    snprintf(req.consumer_label, sizeof req.consumer_label, "gpioevents");
    if (ioctl(fd, GPIO_GET_LINEEVENT_IOCTL, &req) < 0) {
        fprintf(stderr, "gpioevents: %s line %ld: GPIO_GET_LINEEVENT_IOCTL: %s\n", path, line, strerror(errno));
        return 1;
    }
    for (long n = 1; n <= count; n++) {
        struct pollfd pfd = {req.fd, POLLIN, 0};
        int r = poll(&pfd, 1, (int)(timeout_s * 1000));
        if (r <= 0) {
            fprintf(stderr, "gpioevents: %s line %ld: %s after %ld events\n", path, line,
                    r == 0 ? "timed out, no edge" : strerror(errno), n - 1);
            return 1;
        }
        struct gpioevent_data ev;
        if (read(req.fd, &ev, sizeof ev) != (ssize_t)sizeof ev) {
            fprintf(stderr, "gpioevents: read: %s\n", strerror(errno));
            return 1;
        }
        printf("event %ld %llu %s\n", n, (unsigned long long)ev.timestamp,
               ev.id == GPIOEVENT_EVENT_RISING_EDGE ? "rising" : "falling");
        fflush(stdout);
    }
    return 0;
}
