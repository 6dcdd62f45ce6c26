// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ppsbench_lab - a test PPS source with a known ground truth, for ppsbench's real-kernel lab.
 *
 * A CLOCK_REALTIME hrtimer in hard-IRQ mode (the generator) fires on exact multiples of
 * period_ms and raises the interrupt of line 0 of a virtual GPIO chip, exactly as a GPS PPS edge
 * on a GPIO pin would. A PPS handler in the style chosen by `mode` takes the timestamp and calls
 * pps_event(), so /dev/ppsN behaves like pps-gpio on this kernel. Line 1 gets the same edges for
 * the libgpiod (GPIO character device) path.
 *
 * Line 2 is an output, a jumper wire to lines 0 and 1 while the generator is off (parameter
 * `generator`, writable at run time): setting it raises both inputs' interrupts from hard-IRQ
 * context (an irq_work), the way an electrical edge would, for `ppsbench latency`.
 *
 * A PTP hardware clock (/dev/ptpN, one external-timestamp channel, one pin) gives the
 * hardware-perfect reference for the PPS path's bias: the same timer that raises the PPS line
 * latches each rising edge at the moment the line goes up, as a NIC's event pin would, and
 * reports it as an external-timestamp event. The clock reads CLOCK_REALTIME plus ptp_offset_ns
 * (TAI-like), so its time base really has to be converted; its cross-timestamps are precise,
 * extended or basic as ptp_cross says (writable at run time).
 *
 * A level register (/dev/gpiomem7) gives the polled reference, `poll:mem:`: a misc device whose one
 * page holds the input lines' levels as bits of the 32-bit word at offset 0 (bit N = line N, so
 * the PPS line is bit 0), written by the same timer, in the same hard IRQ, just before it raises
 * each edge's interrupt (the rise, and the fall width_pct later). It is named like the
 * Raspberry Pi's gpiomem devices on purpose: ppsbench's poll:mem: maps only /dev/gpiomem*, the
 * class of devices that expose a GPIO block's registers and nothing else (other MMIO can hold
 * registers that a read clears), and this device is exactly that: a GPIO level register alone,
 * read-only, with no side effect on a read. The records' raised_ns is read just before the
 * register changes, so it is the ground truth for the polled edge too.
 *
 * Every edge is recorded in /proc/ppsbench_lab: when it was meant to happen, when the timer
 * really fired, the timestamp the handler took, in which context it was taken (hard IRQ or a
 * task, and which task) and the PPS sequence number it got. That record is what the lab's
 * tests compare user-space captures against.
 *
 * Handler modes, and how the module looks like pps-gpio to a reader of /proc and /sys:
 *   threaded  request_irq() with one handler, like pps-gpio before the split: on PREEMPT_RT or
 *             with threadirqs it is force-threaded, so the timestamp is taken after the
 *             irq/N thread wakes, not at the edge.
 *   nothread  the same handler with IRQF_NO_THREAD: hard-IRQ timestamps everywhere, but on
 *             PREEMPT_RT pps_event() then takes a spinlock_t (a sleeping lock there) and wakes
 *             waiters from hard-IRQ context, which is not RT-safe.
 *   split     request_threaded_irq() with IRQF_ONESHOT: the primary handler only takes the
 *             timestamp (ONESHOT keeps it out of forced threading), the thread calls
 *             pps_event(). This is the shape of pps-gpio since upstream stable 6.1.188.
 *
 * The handler shape is chosen when the module is built (LAB_SPLIT_HANDLER=1 for split, see
 * ../build-module.sh), and the handlers carry pps-gpio's symbol names (pps_gpio_irq_handler,
 * pps_gpio_irq_hardirq), so /proc/kallsyms tells the shapes apart exactly as it does for the
 * real driver. The PPS source, and with it the IRQ action and the irq/N- thread, is named in
 * the style of a device-tree pps-gpio node (LAB_PPS_NAME). So `ppsbench doctor` diagnoses this
 * module through its ordinary pps-gpio path; it has no knowledge of the lab.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/gpio/machine.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/irqdesc.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pps_kernel.h>
#include <linux/proc_fs.h>
#include <linux/ptp_clock_kernel.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#define LAB_NAME "ppsbench-lab"     /* platform device, GPIO chip and IRQ chip */
#define LAB_PPS_NAME "pps-gpio-lab" /* PPS source and IRQ action: pps-gpio's naming */
#define LAB_NLINES 3
#define LAB_LINE_PPS 0
#define LAB_LINE_GPIO 1
#define LAB_LINE_WIRE 2 /* output, wired to lines 0 and 1 while the generator is off */
#define LAB_MEM_NAME "gpiomem7" /* the level register's device: gpiomem's naming, see the top */
#define LAB_MEM_OFFSET 0        /* byte offset of the level register in its page */

static unsigned int period_ms = 100;
module_param(period_ms, uint, 0444);
MODULE_PARM_DESC(period_ms, "pulse period in ms; edges are at exact multiples of it in CLOCK_REALTIME (default 100)");

#ifndef LAB_SPLIT_HANDLER
#define LAB_SPLIT_HANDLER 0
#endif
#if LAB_SPLIT_HANDLER
static char *mode = "split";
#else
static char *mode = "threaded";
#endif
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "PPS handler: threaded (old pps-gpio) or nothread (IRQF_NO_THREAD) in the single-handler build; split (hard-IRQ timestamp + threaded pps_event) in the split build");

static unsigned int records = 2048;
module_param(records, uint, 0444);
MODULE_PARM_DESC(records, "number of per-edge records kept in /proc/ppsbench_lab (ring buffer)");

static bool generator = true;
static const struct kernel_param_ops lab_generator_ops;
module_param_cb(generator, &lab_generator_ops, &generator, 0644);
MODULE_PARM_DESC(generator, "1: the hrtimer drives lines 0 and 1; 0: it stops and output line 2 drives them (a jumper wire)");

static unsigned int width_pct = 20;
module_param(width_pct, uint, 0444);
MODULE_PARM_DESC(width_pct, "pulse width in percent of the period (falling edge time)");

static unsigned long long ptp_offset_ns = 37000000000ULL;
module_param(ptp_offset_ns, ullong, 0444);
MODULE_PARM_DESC(ptp_offset_ns, "the PTP clock reads CLOCK_REALTIME plus this (default 37 s, TAI - UTC)");

/* 2 precise (getcrosststamp), 1 extended (gettimex64), 0 basic: the better ones decline. */
static unsigned int ptp_cross = 1;
module_param(ptp_cross, uint, 0644);
MODULE_PARM_DESC(ptp_cross, "cross-timestamps the PTP clock offers: 2 precise, 1 extended (default), 0 basic only");

#define LAB_PTP_QUEUE 16 /* latched edges waiting for delivery */

enum lab_mode { LAB_THREADED, LAB_NOTHREAD, LAB_SPLIT };
static const char *const lab_mode_names[] = { "threaded", "nothread", "split" };

/* One edge. Times are ns since the epoch (CLOCK_REALTIME) unless named _mono. 0 = not yet. */
struct lab_record {
	u64 edge_seq;       /* rising edges raised so far, 1-based */
	s64 intended_ns;    /* the exact multiple of the period the edge was armed for */
	s64 fired_ns;       /* when the hrtimer callback ran */
	/* When each line's IRQ was raised. The lines are raised one after the other, and under
	 * emulation waking a thread on the other vCPU can take milliseconds, so each path's delay
	 * is measured from its own raise. The GPIO one is on CLOCK_MONOTONIC, like uAPI v1 events. */
	s64 raised_ns;
	s64 gpio_raised_mono_ns;
	s64 ts_ns;          /* the timestamp handed to pps_event() */
	s64 event_ns;       /* when pps_event() was called (later than ts_ns in split mode) */
	u32 pps_seq;        /* the PPS device's assert sequence after this event */
	u8 ts_hardirq;      /* the timestamp was taken in hard-IRQ context */
	s16 ts_cpu;
	pid_t ts_pid;       /* task the timestamp was taken in (the interrupted task in hard IRQ) */
	char ts_comm[TASK_COMM_LEN];
};

struct lab {
	struct platform_device *pdev; /* parent of the gpiochip and the pps device in sysfs */
	struct gpio_chip gc;
	char chip_name[32];
	unsigned int irq_type[LAB_NLINES];
	unsigned long level; /* bit per line: current input level */
	bool irq_enabled[LAB_NLINES];

	struct hrtimer timer;
	s64 period_ns;
	s64 width_ns;
	s64 next_rise_ns;
	bool next_is_rise;
	u64 edge_seq;
	u64 timer_late; /* edges skipped because the timer fired after the next edge was due */

	/* The jumper wire (line 2): set_value() notes the time and edge, the irq_work raises it. */
	struct irq_work wire_work;
	s64 wire_set_ns;
	unsigned int wire_edge_type;

	struct gpio_desc *pps_desc;
	int irq;
	enum lab_mode mode;
	struct pps_device *pps;
	struct pps_source_info info;

	/* Edge being serviced: set by the timer before raising the IRQ, read by the handler. */
	u64 pending_edge;
	/* split mode: hard-IRQ part hands the timestamp to the thread */
	struct pps_event_time split_ts;
	u64 split_edge;
	u64 split_overrun;
	u64 lost_edges; /* edges whose handler never ran for them (merged by a late thread) */

	raw_spinlock_t ring_lock; /* raw: written from hard IRQ, also on PREEMPT_RT */
	struct lab_record *ring;
	unsigned int nring;

	struct proc_dir_entry *proc;

	/* The level register: one page, mapped read-only by poll:mem: readers. */
	struct miscdevice mem_dev;
	u32 *mem_page;

	/* The PTP clock: edges latched in the timer, delivered as events by an irq_work. */
	struct ptp_clock_info ptp_info;
	struct ptp_pin_desc ptp_pin;
	struct ptp_clock *ptp;
	bool extts_on;
	struct irq_work ptp_work;
	raw_spinlock_t ptp_lock;
	s64 ptp_queue[LAB_PTP_QUEUE];
	unsigned int ptp_head, ptp_tail;
	u64 ptp_events;
	u64 ptp_dropped;
};

static struct lab *lab;

static struct lab_record *lab_slot(struct lab *l, u64 edge)
{
	return &l->ring[edge % l->nring];
}

/* The level register follows the lines: called right after every change of l->level's input
 * bits, before the edge's interrupt is raised, so a poller sees the new level no later than the
 * handler runs. */
static void lab_mem_publish(struct lab *l)
{
	WRITE_ONCE(l->mem_page[LAB_MEM_OFFSET / 4], (u32)READ_ONCE(l->level));
}

/* ---- the virtual GPIO chip: input-only lines whose level the timer drives ---- */

static void lab_wire_set(struct lab *l, int value);

static int lab_gpio_get_direction(struct gpio_chip *gc, unsigned int offset)
{
	return offset == LAB_LINE_WIRE ? GPIO_LINE_DIRECTION_OUT : GPIO_LINE_DIRECTION_IN;
}

static int lab_gpio_direction_input(struct gpio_chip *gc, unsigned int offset)
{
	return offset == LAB_LINE_WIRE ? -EPERM : 0;
}

static int lab_gpio_direction_output(struct gpio_chip *gc, unsigned int offset, int value)
{
	if (offset != LAB_LINE_WIRE)
		return -EPERM;
	lab_wire_set(gpiochip_get_data(gc), value);
	return 0;
}

static void lab_gpio_set(struct gpio_chip *gc, unsigned int offset, int value)
{
	if (offset == LAB_LINE_WIRE)
		lab_wire_set(gpiochip_get_data(gc), value);
}

static int lab_gpio_get(struct gpio_chip *gc, unsigned int offset)
{
	struct lab *l = gpiochip_get_data(gc);

	return test_bit(offset, &l->level) ? 1 : 0;
}

static void lab_irq_mask(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct lab *l = gpiochip_get_data(gc);
	irq_hw_number_t hw = irqd_to_hwirq(d);

	WRITE_ONCE(l->irq_enabled[hw], false);
	gpiochip_disable_irq(gc, hw);
}

static void lab_irq_unmask(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct lab *l = gpiochip_get_data(gc);
	irq_hw_number_t hw = irqd_to_hwirq(d);

	gpiochip_enable_irq(gc, hw);
	WRITE_ONCE(l->irq_enabled[hw], true);
}

static int lab_irq_set_type(struct irq_data *d, unsigned int type)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct lab *l = gpiochip_get_data(gc);

	/* Edges only: the lines are pulse trains, a level trigger would storm. */
	if (type & ~IRQ_TYPE_EDGE_BOTH)
		return -EINVAL;
	WRITE_ONCE(l->irq_type[irqd_to_hwirq(d)], type);
	return 0;
}

static const struct irq_chip lab_irq_chip = {
	.name = LAB_NAME,
	.irq_mask = lab_irq_mask,
	.irq_unmask = lab_irq_unmask,
	.irq_set_type = lab_irq_set_type,
	.flags = IRQCHIP_IMMUTABLE | IRQCHIP_SKIP_SET_WAKE,
	GPIOCHIP_IRQ_RESOURCE_HELPERS,
};

static const char *const lab_line_names[LAB_NLINES] = { "pps-in", "pulse-in", "wire-out" };

/* ---- the edge generator ---- */

static void lab_raise(struct lab *l, unsigned int line, unsigned int edge_type)
{
	if (!(READ_ONCE(l->irq_type[line]) & edge_type) || !READ_ONCE(l->irq_enabled[line]))
		return;
	/* The _safe variant disables interrupts itself; fine from any context. */
	generic_handle_domain_irq_safe(l->gc.irq.domain, line);
}

static void lab_ptp_latch(struct lab *l, s64 edge_ns);

/*
 * A rising edge on both input lines, recorded: what the edge was meant for (`intended`), when
 * its source acted (`fired`), and when each line's interrupt was raised. Hard-IRQ context.
 */
static void lab_rising_edge(struct lab *l, s64 intended, s64 fired, bool fired_by_timer)
{
	struct lab_record *r;
	unsigned long flags;
	u64 edge = ++l->edge_seq;
	s64 raised;

	raw_spin_lock_irqsave(&l->ring_lock, flags);
	r = lab_slot(l, edge);
	memset(r, 0, sizeof(*r));
	r->edge_seq = edge;
	r->intended_ns = intended;
	r->fired_ns = fired;
	r->raised_ns = ktime_get_real_ns();
	raised = r->raised_ns;
	raw_spin_unlock_irqrestore(&l->ring_lock, flags);

	/* The line goes up now, in the level register too (the polled reference sees it here). */
	set_bit(LAB_LINE_PPS, &l->level);
	set_bit(LAB_LINE_GPIO, &l->level);
	lab_mem_publish(l);
	/* This is what a PHC's event pin would latch. */
	if (fired_by_timer)
		lab_ptp_latch(l, raised);
	WRITE_ONCE(l->pending_edge, edge);
	lab_raise(l, LAB_LINE_PPS, IRQ_TYPE_EDGE_RISING);

	raw_spin_lock_irqsave(&l->ring_lock, flags);
	r = lab_slot(l, edge);
	if (r->edge_seq == edge)
		r->gpio_raised_mono_ns = ktime_get_ns();
	raw_spin_unlock_irqrestore(&l->ring_lock, flags);
	lab_raise(l, LAB_LINE_GPIO, IRQ_TYPE_EDGE_RISING);
}

static void lab_falling_edge(struct lab *l)
{
	clear_bit(LAB_LINE_PPS, &l->level);
	clear_bit(LAB_LINE_GPIO, &l->level);
	lab_mem_publish(l);
	lab_raise(l, LAB_LINE_PPS, IRQ_TYPE_EDGE_FALLING);
	lab_raise(l, LAB_LINE_GPIO, IRQ_TYPE_EDGE_FALLING);
}

static s64 lab_next_multiple(s64 t, s64 p)
{
	return (div64_s64(t, p) + 1) * p;
}

static enum hrtimer_restart lab_timer_fn(struct hrtimer *t)
{
	struct lab *l = container_of(t, struct lab, timer);
	s64 fired = ktime_get_real_ns();

	if (l->next_is_rise) {
		lab_rising_edge(l, l->next_rise_ns, fired, true);
		hrtimer_set_expires(t, ns_to_ktime(l->next_rise_ns + l->width_ns));
		l->next_is_rise = false;
	} else {
		lab_falling_edge(l);
		l->next_rise_ns += l->period_ns;
		if (l->next_rise_ns <= fired) {
			/* Emulation stalls can outlast a period: skip to the next multiple, count it. */
			s64 next = lab_next_multiple(fired, l->period_ns);

			l->timer_late += div64_s64(next - l->next_rise_ns, l->period_ns);
			l->next_rise_ns = next;
		}
		hrtimer_set_expires(t, ns_to_ktime(l->next_rise_ns));
		l->next_is_rise = true;
	}
	return HRTIMER_RESTART;
}

static void lab_generator_start(struct lab *l)
{
	l->next_rise_ns = lab_next_multiple(ktime_get_real_ns(), l->period_ns);
	l->next_is_rise = true;
	hrtimer_start(&l->timer, ns_to_ktime(l->next_rise_ns), HRTIMER_MODE_ABS_HARD);
}

/* Writing the `generator` parameter starts or stops the timer; the lines are left low. */
static int lab_generator_set(const char *val, const struct kernel_param *kp)
{
	bool was = generator;
	int ret = param_set_bool(val, kp);

	if (ret || !lab || generator == was)
		return ret;
	if (generator) {
		lab_generator_start(lab);
	} else {
		hrtimer_cancel(&lab->timer);
		clear_bit(LAB_LINE_PPS, &lab->level);
		clear_bit(LAB_LINE_GPIO, &lab->level);
		lab_mem_publish(lab);
	}
	return 0;
}

static const struct kernel_param_ops lab_generator_ops = {
	.set = lab_generator_set,
	.get = param_get_bool,
};

/* ---- the jumper wire: output line 2 to input lines 0 and 1 ---- */

/* Hard-IRQ context (IRQ_WORK_INIT_HARD, also on PREEMPT_RT), like an electrical edge's entry. */
static void lab_wire_work_fn(struct irq_work *w)
{
	struct lab *l = container_of(w, struct lab, wire_work);
	s64 set_ns = READ_ONCE(l->wire_set_ns);

	if (READ_ONCE(l->wire_edge_type) == IRQ_TYPE_EDGE_RISING)
		lab_rising_edge(l, set_ns, set_ns, false);
	else
		lab_falling_edge(l);
}

/* gpiolib's set callback, in the setting task's context (the GPIO character device ioctl). */
static void lab_wire_set(struct lab *l, int value)
{
	bool high = value != 0;

	/* While the generator runs the wire is not connected: the timer owns the inputs. */
	if (READ_ONCE(generator) || test_bit(LAB_LINE_WIRE, &l->level) == high) {
		assign_bit(LAB_LINE_WIRE, &l->level, high);
		return;
	}
	assign_bit(LAB_LINE_WIRE, &l->level, high);
	WRITE_ONCE(l->wire_set_ns, ktime_get_real_ns());
	WRITE_ONCE(l->wire_edge_type, high ? IRQ_TYPE_EDGE_RISING : IRQ_TYPE_EDGE_FALLING);
	irq_work_queue(&l->wire_work);
}

/* ---- the PPS handlers ---- */

static void lab_note_ts(struct lab *l, u64 edge, const struct pps_event_time *ts, bool hardirq)
{
	struct lab_record *r;
	unsigned long flags;

	raw_spin_lock_irqsave(&l->ring_lock, flags);
	r = lab_slot(l, edge);
	if (r->edge_seq == edge) {
		r->ts_ns = timespec64_to_ns(&ts->ts_real);
		r->ts_hardirq = hardirq;
		r->ts_cpu = raw_smp_processor_id();
		r->ts_pid = current->pid;
		memcpy(r->ts_comm, current->comm, TASK_COMM_LEN);
	}
	raw_spin_unlock_irqrestore(&l->ring_lock, flags);
}

static void lab_note_event(struct lab *l, u64 edge, s64 event_ns)
{
	struct lab_record *r;
	unsigned long flags;
	u32 seq = READ_ONCE(l->pps->assert_sequence);

	raw_spin_lock_irqsave(&l->ring_lock, flags);
	r = lab_slot(l, edge);
	if (r->edge_seq == edge) {
		r->event_ns = event_ns;
		r->pps_seq = seq;
	}
	raw_spin_unlock_irqrestore(&l->ring_lock, flags);
}

#if !LAB_SPLIT_HANDLER
/* Old pps-gpio shape: timestamp and pps_event() in one handler (threaded and nothread modes). */
static irqreturn_t pps_gpio_irq_handler(int irq, void *data)
{
	struct lab *l = data;
	struct pps_event_time ts;
	u64 edge;
	s64 event_ns;

	pps_get_ts(&ts);
	edge = READ_ONCE(l->pending_edge);
	lab_note_ts(l, edge, &ts, in_hardirq());
	event_ns = ktime_get_real_ns();
	pps_event(l->pps, &ts, PPS_CAPTUREASSERT, NULL);
	lab_note_event(l, edge, event_ns);
	return IRQ_HANDLED;
}
#else
/* Split shape, primary part: only the timestamp, in hard-IRQ context even on PREEMPT_RT. */
static irqreturn_t pps_gpio_irq_hardirq(int irq, void *data)
{
	struct lab *l = data;
	struct pps_event_time ts;
	u64 edge;

	pps_get_ts(&ts);
	edge = READ_ONCE(l->pending_edge);
	lab_note_ts(l, edge, &ts, in_hardirq());
	/* ONESHOT does not mask a handle_simple_irq line: a second edge before the thread ran
	 * overwrites the first, as a real driver with a one-slot buffer would. Count it. */
	if (READ_ONCE(l->split_edge) != 0)
		l->split_overrun++;
	l->split_ts = ts;
	smp_wmb();
	WRITE_ONCE(l->split_edge, edge);
	return IRQ_WAKE_THREAD;
}

/* Split shape, threaded part: pps_event() takes a spinlock_t and wakes readers. */
static irqreturn_t pps_gpio_irq_thread(int irq, void *data)
{
	struct lab *l = data;
	struct pps_event_time ts;
	u64 edge = xchg(&l->split_edge, 0);
	s64 event_ns;

	if (!edge)
		return IRQ_NONE;
	smp_rmb();
	ts = l->split_ts;
	event_ns = ktime_get_real_ns();
	pps_event(l->pps, &ts, PPS_CAPTUREASSERT, NULL);
	lab_note_event(l, edge, event_ns);
	return IRQ_HANDLED;
}
#endif

/* ---- the PTP clock: a hardware-perfect reference for the PPS path ---- */

static struct lab *lab_of_ptp(struct ptp_clock_info *info)
{
	return container_of(info, struct lab, ptp_info);
}

/* Hard-IRQ context (the generator's timer): queue the edge for delivery. */
static void lab_ptp_latch(struct lab *l, s64 edge_ns)
{
	unsigned long flags;

	if (!READ_ONCE(l->extts_on))
		return;
	raw_spin_lock_irqsave(&l->ptp_lock, flags);
	if (l->ptp_head - l->ptp_tail < LAB_PTP_QUEUE) {
		l->ptp_queue[l->ptp_head % LAB_PTP_QUEUE] = edge_ns + ptp_offset_ns;
		l->ptp_head++;
	} else {
		l->ptp_dropped++;
	}
	raw_spin_unlock_irqrestore(&l->ptp_lock, flags);
	irq_work_queue(&l->ptp_work);
}

/* ptp_clock_event() takes a spinlock_t, a sleeping lock on PREEMPT_RT: it is called from a
 * plain irq_work (a thread there, hard IRQ otherwise), never from the hard timer. The event
 * carries the latched time, so when it is delivered does not matter. */
static void lab_ptp_work_fn(struct irq_work *w)
{
	struct lab *l = container_of(w, struct lab, ptp_work);
	struct ptp_clock_event ev = { .type = PTP_CLOCK_EXTTS, .index = 0 };
	unsigned long flags;

	for (;;) {
		raw_spin_lock_irqsave(&l->ptp_lock, flags);
		if (l->ptp_tail == l->ptp_head) {
			raw_spin_unlock_irqrestore(&l->ptp_lock, flags);
			break;
		}
		ev.timestamp = l->ptp_queue[l->ptp_tail % LAB_PTP_QUEUE];
		l->ptp_tail++;
		raw_spin_unlock_irqrestore(&l->ptp_lock, flags);
		ptp_clock_event(l->ptp, &ev);
		l->ptp_events++;
	}
}

static s64 lab_ptp_now(void)
{
	return ktime_get_real_ns() + ptp_offset_ns;
}

static int lab_ptp_gettime64(struct ptp_clock_info *info, struct timespec64 *ts)
{
	*ts = ns_to_timespec64(lab_ptp_now());
	return 0;
}

/* PTP_SYS_OFFSET_EXTENDED: system time read just before and after the clock. With sts == NULL
 * (clock_gettime on the PHC, PTP_SYS_OFFSET) it always answers. */
static int lab_ptp_gettimex64(struct ptp_clock_info *info, struct timespec64 *ts,
			      struct ptp_system_timestamp *sts)
{
	if (sts && READ_ONCE(ptp_cross) < 1)
		return -EOPNOTSUPP;
	ptp_read_system_prets(sts);
	*ts = ns_to_timespec64(lab_ptp_now());
	ptp_read_system_postts(sts);
	return 0;
}

/* PTP_SYS_OFFSET_PRECISE: both clocks from one snapshot, as an ART-latched NIC gives them. */
static int lab_ptp_getcrosststamp(struct ptp_clock_info *info, struct system_device_crosststamp *cts)
{
	struct system_time_snapshot snap;

	if (READ_ONCE(ptp_cross) < 2)
		return -EOPNOTSUPP;
	ktime_get_snapshot(&snap);
	cts->device = ktime_add_ns(snap.real, ptp_offset_ns);
	cts->sys_realtime = snap.real;
	cts->sys_monoraw = snap.raw;
	return 0;
}

static int lab_ptp_adjfine(struct ptp_clock_info *info, long scaled_ppm)
{
	return -EOPNOTSUPP;
}

static int lab_ptp_adjtime(struct ptp_clock_info *info, s64 delta)
{
	return -EOPNOTSUPP;
}

static int lab_ptp_settime64(struct ptp_clock_info *info, const struct timespec64 *ts)
{
	return -EOPNOTSUPP;
}

/* Called with the clock's pincfg_mux held (PTP_EXTTS_REQUEST). */
static int lab_ptp_enable(struct ptp_clock_info *info, struct ptp_clock_request *rq, int on)
{
	struct lab *l = lab_of_ptp(info);

	if (rq->type != PTP_CLK_REQ_EXTTS || rq->extts.index != 0)
		return -EOPNOTSUPP;
	if (on) {
		/* The generator's pulses are latched on their rising edge only. */
		if ((rq->extts.flags & PTP_EXTTS_EDGES) == PTP_FALLING_EDGE)
			return -EOPNOTSUPP;
		/* Like igb: a channel whose input no pin carries cannot be enabled. */
		if (ptp_find_pin(l->ptp, PTP_PF_EXTTS, 0) < 0)
			return -EBUSY;
	}
	WRITE_ONCE(l->extts_on, !!on);
	return 0;
}

static int lab_ptp_verify(struct ptp_clock_info *info, unsigned int pin, enum ptp_pin_function func,
			  unsigned int chan)
{
	return func == PTP_PF_NONE || func == PTP_PF_EXTTS ? 0 : -EOPNOTSUPP;
}

static int lab_ptp_register(struct lab *l)
{
	struct ptp_clock_info *info = &l->ptp_info;

	raw_spin_lock_init(&l->ptp_lock);
	init_irq_work(&l->ptp_work, lab_ptp_work_fn);
	strscpy(l->ptp_pin.name, "PPS-IN", sizeof(l->ptp_pin.name));
	l->ptp_pin.index = 0;
	l->ptp_pin.func = PTP_PF_EXTTS;
	l->ptp_pin.chan = 0;
	info->owner = THIS_MODULE;
	strscpy(info->name, LAB_NAME, sizeof(info->name));
	info->n_ext_ts = 1;
	info->n_pins = 1;
	info->pin_config = &l->ptp_pin;
	info->adjfine = lab_ptp_adjfine;
	info->adjtime = lab_ptp_adjtime;
	info->gettime64 = lab_ptp_gettime64;
	info->gettimex64 = lab_ptp_gettimex64;
	info->getcrosststamp = lab_ptp_getcrosststamp;
	info->settime64 = lab_ptp_settime64;
	info->enable = lab_ptp_enable;
	info->verify = lab_ptp_verify;
	l->ptp = ptp_clock_register(info, &l->pdev->dev);
	if (IS_ERR_OR_NULL(l->ptp)) { /* NULL: the kernel has no PTP clock support */
		int ret = l->ptp ? PTR_ERR(l->ptp) : -ENODEV;

		l->ptp = NULL;
		return ret;
	}
	return 0;
}

static void lab_ptp_unregister(struct lab *l)
{
	if (!l->ptp)
		return;
	WRITE_ONCE(l->extts_on, false);
	irq_work_sync(&l->ptp_work);
	ptp_clock_unregister(l->ptp);
	l->ptp = NULL;
}

/* ---- the level register, /dev/gpiomem7 ---- */

/* Read-only, one page at offset 0: a reader maps it and reads the word; nothing else. A
 * mapping holds the file, the file holds the module (fops.owner), so the page outlives every
 * mapping. */
static int lab_mem_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct lab *l = container_of(file->private_data, struct lab, mem_dev);

	if (vma->vm_pgoff != 0 || vma->vm_end - vma->vm_start > PAGE_SIZE)
		return -EINVAL;
	if (vma->vm_flags & (VM_WRITE | VM_MAYWRITE))
		return -EPERM;
	return remap_pfn_range(vma, vma->vm_start, virt_to_phys(l->mem_page) >> PAGE_SHIFT,
			       PAGE_SIZE, vma->vm_page_prot);
}

static const struct file_operations lab_mem_fops = {
	.owner = THIS_MODULE,
	.mmap = lab_mem_mmap,
	.llseek = noop_llseek,
};

static int lab_mem_register(struct lab *l)
{
	int ret;

	l->mem_page = (u32 *)get_zeroed_page(GFP_KERNEL);
	if (!l->mem_page)
		return -ENOMEM;
	l->mem_dev.minor = MISC_DYNAMIC_MINOR;
	l->mem_dev.name = LAB_MEM_NAME;
	l->mem_dev.fops = &lab_mem_fops;
	l->mem_dev.mode = 0444;
	ret = misc_register(&l->mem_dev);
	if (ret) {
		free_page((unsigned long)l->mem_page);
		l->mem_page = NULL;
	}
	return ret;
}

static void lab_mem_unregister(struct lab *l)
{
	misc_deregister(&l->mem_dev);
	free_page((unsigned long)l->mem_page);
	l->mem_page = NULL;
}

/* ---- /proc/ppsbench_lab ---- */

static int lab_proc_show(struct seq_file *m, void *v)
{
	struct lab *l = lab;
	struct lab_record r;
	unsigned long flags;
	u64 last = READ_ONCE(l->edge_seq);
	u64 first = last > l->nring ? last - l->nring + 1 : 1;
	u64 e, lost = 0;

	seq_printf(m, "# ppsbench_lab v2 mode=%s period_ms=%u irq=%d gpiochip=%s base=%d pps=%s ptp=ptp%d ptp_offset_ns=%llu gpiomem=%s level_offset=%d level_bit=%d\n",
		   lab_mode_names[l->mode], period_ms, l->irq, l->chip_name,
		   l->gc.base, dev_name(&l->pps->dev), ptp_clock_index(l->ptp), ptp_offset_ns,
		   LAB_MEM_NAME, LAB_MEM_OFFSET, LAB_LINE_PPS);
	for (e = first; e <= last; e++) {
		raw_spin_lock_irqsave(&l->ring_lock, flags);
		r = *lab_slot(l, e);
		raw_spin_unlock_irqrestore(&l->ring_lock, flags);
		if (r.edge_seq == e && !r.pps_seq)
			lost++;
	}
	seq_printf(m, "# edges=%llu timer_late=%llu split_overrun=%llu no_event=%llu ptp_events=%llu ptp_dropped=%llu\n",
		   last, l->timer_late, l->split_overrun, lost, l->ptp_events, l->ptp_dropped);
	seq_puts(m, "# edge_seq intended_ns fired_ns raised_ns gpio_raised_mono_ns ts_ns event_ns pps_seq hardirq cpu pid comm\n");
	for (e = first; e <= last; e++) {
		raw_spin_lock_irqsave(&l->ring_lock, flags);
		r = *lab_slot(l, e);
		raw_spin_unlock_irqrestore(&l->ring_lock, flags);
		if (r.edge_seq != e)
			continue;
		r.ts_comm[TASK_COMM_LEN - 1] = '\0';
		seq_printf(m, "%llu %lld %lld %lld %lld %lld %lld %u %u %d %d %s\n", r.edge_seq,
			   r.intended_ns, r.fired_ns, r.raised_ns, r.gpio_raised_mono_ns, r.ts_ns,
			   r.event_ns, r.pps_seq,
			   r.ts_hardirq, r.ts_cpu, r.ts_pid, r.ts_pid || r.ts_ns ? r.ts_comm : "-");
	}
	return 0;
}

static int lab_proc_open(struct inode *inode, struct file *file)
{
	/* Size the buffer up front: ~110 bytes a record. */
	return single_open_size(file, lab_proc_show, NULL, 512 + (size_t)lab->nring * 128);
}

static const struct proc_ops lab_proc_ops = {
	.proc_open = lab_proc_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
};

/* ---- setup ---- */

static int lab_match_gpiochip(struct device *dev, void *data)
{
	return strncmp(dev_name(dev), "gpiochip", 8) == 0;
}

/* struct gpio_device is private to gpiolib in 6.1; find its device as our platform child. */
static void lab_find_chip_name(struct lab *l)
{
	struct device *dev = device_find_child(&l->pdev->dev, NULL, lab_match_gpiochip);

	strscpy(l->chip_name, dev ? dev_name(dev) : "?", sizeof(l->chip_name));
	put_device(dev);
}

static int lab_parse_mode(const char *s, enum lab_mode *out)
{
	int i = sysfs_match_string(lab_mode_names, s);

	if (i < 0)
		return -EINVAL;
	/* Only the handlers of this build's shape exist (see the top of the file). */
	if ((i == LAB_SPLIT) != LAB_SPLIT_HANDLER)
		return -EINVAL;
	*out = i;
	return 0;
}

static int __init lab_init(void)
{
	struct gpio_irq_chip *girq;
	struct lab *l;
	int ret;

	if (period_ms < 2 || period_ms > 10000) {
		pr_err("period_ms=%u out of range 2..10000\n", period_ms);
		return -EINVAL;
	}
	if (width_pct < 1 || width_pct > 90) {
		pr_err("width_pct=%u out of range 1..90\n", width_pct);
		return -EINVAL;
	}
	if (records < 16 || records > 65536) {
		pr_err("records=%u out of range 16..65536\n", records);
		return -EINVAL;
	}

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	if (lab_parse_mode(mode, &l->mode)) {
		pr_err("mode=%s: this build takes %s\n", mode,
		       LAB_SPLIT_HANDLER ? "split" : "threaded or nothread");
		ret = -EINVAL;
		goto err_free;
	}
	l->nring = records;
	l->ring = kvcalloc(l->nring, sizeof(*l->ring), GFP_KERNEL);
	if (!l->ring) {
		ret = -ENOMEM;
		goto err_free;
	}
	raw_spin_lock_init(&l->ring_lock);
	l->period_ns = (s64)period_ms * NSEC_PER_MSEC;
	l->wire_work = IRQ_WORK_INIT_HARD(lab_wire_work_fn);
	l->width_ns = div_s64(l->period_ns * width_pct, 100);

	l->pdev = platform_device_register_simple(LAB_NAME, PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(l->pdev)) {
		ret = PTR_ERR(l->pdev);
		pr_err("platform_device_register_simple: %d\n", ret);
		goto err_ring;
	}

	l->gc.label = LAB_NAME;
	l->gc.parent = &l->pdev->dev;
	/* NULL owner: gpiolib would otherwise take a reference on this module for every requested
	 * line, including our own PPS line, and rmmod could never succeed. */
	l->gc.owner = NULL;
	l->gc.base = -1;
	l->gc.ngpio = LAB_NLINES;
	l->gc.names = lab_line_names;
	l->gc.can_sleep = false;
	l->gc.get_direction = lab_gpio_get_direction;
	l->gc.direction_input = lab_gpio_direction_input;
	l->gc.direction_output = lab_gpio_direction_output;
	l->gc.get = lab_gpio_get;
	l->gc.set = lab_gpio_set;
	girq = &l->gc.irq;
	gpio_irq_chip_set_chip(girq, &lab_irq_chip);
	girq->handler = handle_simple_irq;
	girq->default_type = IRQ_TYPE_NONE;
	girq->parent_handler = NULL;
	girq->num_parents = 0;
	girq->parents = NULL;

	ret = gpiochip_add_data(&l->gc, l);
	if (ret) {
		pr_err("gpiochip_add_data: %d\n", ret);
		goto err_pdev;
	}
	lab_find_chip_name(l);

	/* Like pps-gpio: the PPS source's name is also the IRQ action's name, so the irq/N-name
	 * thread and /proc/interrupts lead back to the PPS device. */
	strscpy(l->info.name, LAB_PPS_NAME, PPS_MAX_NAME_LEN);
	l->info.mode = PPS_CAPTUREASSERT | PPS_OFFSETASSERT | PPS_CANWAIT | PPS_TSFMT_TSPEC;
	l->info.owner = THIS_MODULE;
	l->info.dev = &l->pdev->dev;
	l->pps = pps_register_source(&l->info, PPS_CAPTUREASSERT | PPS_OFFSETASSERT);
	if (IS_ERR_OR_NULL(l->pps)) { /* 6.1 returns ERR_PTR; older kernels NULL */
		ret = l->pps ? PTR_ERR(l->pps) : -ENOMEM;
		pr_err("pps_register_source: %d\n", ret);
		goto err_gpio;
	}

	l->pps_desc = gpiochip_request_own_desc(&l->gc, LAB_LINE_PPS, LAB_NAME, GPIO_LOOKUP_FLAGS_DEFAULT,
						GPIOD_IN);
	if (IS_ERR(l->pps_desc)) {
		ret = PTR_ERR(l->pps_desc);
		pr_err("gpiochip_request_own_desc: %d\n", ret);
		goto err_pps;
	}
	l->irq = gpiod_to_irq(l->pps_desc);
	if (l->irq < 0) {
		ret = l->irq;
		pr_err("gpiod_to_irq: %d\n", ret);
		goto err_desc;
	}

#if LAB_SPLIT_HANDLER
	ret = request_threaded_irq(l->irq, pps_gpio_irq_hardirq, pps_gpio_irq_thread,
				   IRQF_TRIGGER_RISING | IRQF_ONESHOT, LAB_PPS_NAME, l);
#else
	ret = request_irq(l->irq, pps_gpio_irq_handler,
			  IRQF_TRIGGER_RISING | (l->mode == LAB_NOTHREAD ? IRQF_NO_THREAD : 0),
			  LAB_PPS_NAME, l);
#endif
	if (ret) {
		pr_err("requesting IRQ %d (mode %s): %d\n", l->irq, lab_mode_names[l->mode], ret);
		goto err_desc;
	}

	ret = lab_ptp_register(l);
	if (ret) {
		pr_err("ptp_clock_register: %d\n", ret);
		goto err_irq_only;
	}
	ret = lab_mem_register(l);
	if (ret) {
		pr_err("registering /dev/%s: %d\n", LAB_MEM_NAME, ret);
		goto err_mem;
	}

	lab = l;
	l->proc = proc_create("ppsbench_lab", 0444, NULL, &lab_proc_ops);
	if (!l->proc) {
		ret = -ENOMEM;
		goto err_irq;
	}

	hrtimer_init(&l->timer, CLOCK_REALTIME, HRTIMER_MODE_ABS_HARD);
	l->timer.function = lab_timer_fn;
	if (generator)
		lab_generator_start(l);

	pr_info("%s on irq %d (%s handler), gpiochip %s lines %s/%s/%s, period %u ms, ptp%d\n",
		dev_name(&l->pps->dev), l->irq, lab_mode_names[l->mode], l->chip_name,
		lab_line_names[0], lab_line_names[1], lab_line_names[2], period_ms,
		ptp_clock_index(l->ptp));
	return 0;

err_irq:
	lab = NULL;
	lab_mem_unregister(l);
err_mem:
	lab_ptp_unregister(l);
err_irq_only:
	free_irq(l->irq, l);
err_desc:
	gpiochip_free_own_desc(l->pps_desc);
err_pps:
	pps_unregister_source(l->pps);
err_gpio:
	gpiochip_remove(&l->gc);
err_pdev:
	platform_device_unregister(l->pdev);
err_ring:
	kvfree(l->ring);
err_free:
	kfree(l);
	return ret;
}

static void __exit lab_exit(void)
{
	struct lab *l = lab;

	hrtimer_cancel(&l->timer);
	irq_work_sync(&l->wire_work);
	proc_remove(l->proc);
	lab_mem_unregister(l);
	lab_ptp_unregister(l);
	free_irq(l->irq, l);
	gpiochip_free_own_desc(l->pps_desc);
	pps_unregister_source(l->pps);
	gpiochip_remove(&l->gc);
	platform_device_unregister(l->pdev);
	kvfree(l->ring);
	kfree(l);
	lab = NULL;
}

module_init(lab_init);
module_exit(lab_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ppsbench lab: PPS source and virtual GPIO lines driven by an hrtimer, with ground-truth records");
MODULE_AUTHOR("ppsbench contributors");
