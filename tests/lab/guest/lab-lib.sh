# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for guest test scripts (busybox sh). Sourced by /init; tests get the exported variables:
#   LAB_MODE LAB_PERIOD_MS LAB_COUNT LAB_CONFIG  from the kernel command line
#   LAB_OUT            directory whose files are sent back to the host (one file per result)
#   LAB_PPS_DEV        /dev/ppsN of the module
#   LAB_GPIOCHIP_DEV   /dev/gpiochipN of the module's virtual chip
#   LAB_PPS_LINE       line of that chip that drives the PPS device (requested by the module)
#   LAB_GPIO_LINE      free line with the same edges, for the GPIO character-device path
#   LAB_WIRE_LINE      output line wired to both inputs while the module's generator is off
#   LAB_IRQ            IRQ number of the PPS line
#   LAB_PTP_DEV        /dev/ptpN of the module's PTP clock (one external-timestamp channel)
#   LAB_GPIOMEM_DEV    /dev/gpiomemN: the module's level register page, for poll:mem:
#   LAB_LEVEL_OFFSET   byte offset of the level register in it; LAB_LEVEL_BIT the PPS line's bit
lab_discover() {
    hdr=$(head -n 1 /proc/ppsbench_lab)
    LAB_IRQ=$(echo "$hdr" | sed -n 's/.* irq=\([0-9]*\).*/\1/p')
    LAB_GPIOCHIP_DEV=/dev/$(echo "$hdr" | sed -n 's/.* gpiochip=\([a-z0-9]*\).*/\1/p')
    LAB_PPS_DEV=/dev/$(echo "$hdr" | sed -n 's/.* pps=\([a-z0-9]*\).*/\1/p')
    LAB_PTP_DEV=/dev/$(echo "$hdr" | sed -n 's/.* ptp=\(ptp[0-9]*\).*/\1/p')
    LAB_GPIOMEM_DEV=/dev/$(echo "$hdr" | sed -n 's/.* gpiomem=\(gpiomem[0-9]*\).*/\1/p')
    LAB_LEVEL_OFFSET=$(echo "$hdr" | sed -n 's/.* level_offset=\([0-9]*\).*/\1/p')
    LAB_LEVEL_BIT=$(echo "$hdr" | sed -n 's/.* level_bit=\([0-9]*\).*/\1/p')
    LAB_PPS_LINE=0
    LAB_GPIO_LINE=1
    LAB_WIRE_LINE=2
    export LAB_IRQ LAB_GPIOCHIP_DEV LAB_PPS_DEV LAB_PTP_DEV LAB_GPIOMEM_DEV LAB_LEVEL_OFFSET LAB_LEVEL_BIT
    export LAB_PPS_LINE LAB_GPIO_LINE LAB_WIRE_LINE
}
