// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ppsfetch: fetch N assert events from an RFC 2783 PPS device and print them exactly as the
 * kernel reported them, for comparison with the ppsbench_lab module's records.
 *
 * Usage: ppsfetch DEVICE COUNT [TIMEOUT_SECONDS]
 * Output: one line per fetched event, "assert SEQUENCE TIMESTAMP_NS", and on stderr a summary.
 * Exit: 0 when COUNT events were fetched, 1 on a timeout or error, 2 on bad usage.
 *
 * Built static on the host (gcc -static) so the guest needs no libc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timepps.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: %s DEVICE COUNT [TIMEOUT_SECONDS]\n", argv[0]);
        return 2;
    }
    const char *path = argv[1];
    long count = strtol(argv[2], NULL, 10);
    long timeout_s = argc == 4 ? strtol(argv[3], NULL, 10) : 3;
    if (count <= 0 || timeout_s <= 0) {
        fprintf(stderr, "ppsfetch: COUNT and TIMEOUT_SECONDS must be positive\n");
        return 2;
    }

    int fd = open(path, O_RDWR);
    if (fd < 0) {
        fprintf(stderr, "ppsfetch: %s: %s\n", path, strerror(errno));
        return 1;
    }
    pps_handle_t h;
    if (time_pps_create(fd, &h) < 0) {
        fprintf(stderr, "ppsfetch: %s: time_pps_create: %s (not a PPS device?)\n", path, strerror(errno));
        return 1;
    }
    int caps = 0;
    if (time_pps_getcap(h, &caps) < 0 || !(caps & PPS_CAPTUREASSERT) || !(caps & PPS_CANWAIT)) {
        fprintf(stderr, "ppsfetch: %s: needs assert capture and PPS_CANWAIT (caps 0x%x)\n", path, caps);
        return 1;
    }
    pps_params_t params;
    if (time_pps_getparams(h, &params) < 0) {
        fprintf(stderr, "ppsfetch: %s: time_pps_getparams: %s\n", path, strerror(errno));
        return 1;
    }
    params.mode |= PPS_CAPTUREASSERT;
    params.mode &= ~PPS_CAPTURECLEAR;
    if (time_pps_setparams(h, &params) < 0) {
        fprintf(stderr, "ppsfetch: %s: time_pps_setparams: %s\n", path, strerror(errno));
        return 1;
    }

    unsigned long last_seq = 0;
    long fetched = 0, gaps = 0;
    while (fetched < count) {
        pps_info_t info;
        struct timespec timeout = {timeout_s, 0};
        if (time_pps_fetch(h, PPS_TSFMT_TSPEC, &info, &timeout) < 0) {
            fprintf(stderr, "ppsfetch: %s: time_pps_fetch after %ld events: %s\n", path, fetched,
                    errno == ETIMEDOUT ? "timed out, no pulse" : strerror(errno));
            return 1;
        }
        if (info.assert_sequence == last_seq) {
            continue; /* woken by a clear event or spuriously */
        }
        if (last_seq && info.assert_sequence != last_seq + 1) {
            gaps += info.assert_sequence - last_seq - 1;
        }
        last_seq = info.assert_sequence;
        long long ns = (long long)info.assert_timestamp.tv_sec * 1000000000LL + info.assert_timestamp.tv_nsec;
        printf("assert %lu %lld\n", last_seq, ns);
        fflush(stdout);
        fetched++;
    }
    fprintf(stderr, "ppsfetch: %s: %ld events, %ld missed by sequence\n", path, fetched, gaps);
    time_pps_destroy(h);
    close(fd);
    return 0;
}
