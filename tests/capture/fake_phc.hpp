// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// A PTP hardware clock's character device as a script: the capabilities, pin table, event
// batches and cross-timestamp samples a real /dev/ptpN would give, and a log of what the source
// asked of it. No PHC exists on CI machines; the real ioctls run in the lab (docs/lab.md), whose
// test module registers a PTP clock with one external-timestamp channel.
#include <cerrno>
#include <deque>
#include <vector>

#include "../../src/capture/sources/phc_device.hpp"

namespace ppsbench::capture::fake {

inline ptp_clock_time clock_time(std::int64_t ns) {
    return {ns / 1'000'000'000, static_cast<std::uint32_t>(ns % 1'000'000'000), 0};
}

// One EXTENDED2 triple: system time before and after a PHC read.
struct Triple {
    std::int64_t before_ns;
    std::int64_t phc_ns;
    std::int64_t after_ns;
};

class FakePhc final : public PhcDevice {
  public:
    ptp_clock_caps caps{};
    std::vector<ptp_pin_desc> pins;
    int caps_error = 0;
    int extts_error = 0;
    int setfunc_error = 0;
    int precise_error = EOPNOTSUPP;  // most NIC drivers have no getcrosststamp
    int extended_error = 0;
    int basic_error = 0;
    std::deque<std::vector<ptp_extts_event>> batches;
    // Cross-timestamps handed out in order; each call takes the next (the last one repeats).
    std::deque<std::vector<Triple>> extended;
    std::deque<ptp_sys_offset_precise> precise;
    int read_error = 0;

    std::vector<ptp_extts_request> requests;
    std::vector<ptp_pin_desc> setfuncs;

    int capabilities(ptp_clock_caps& out) override {
        out = caps;
        return caps_error;
    }
    int pin_function(ptp_pin_desc& pin) override {
        if (pin.index >= pins.size()) {
            return EINVAL;
        }
        pin = pins[pin.index];
        return 0;
    }
    int set_pin_function(const ptp_pin_desc& pin) override {
        setfuncs.push_back(pin);
        if (setfunc_error != 0) {
            return setfunc_error;
        }
        // As ptp_set_pinfunc() does: another pin with this function and channel loses it.
        for (auto& other : pins) {
            if (other.index != pin.index && other.func == pin.func && other.chan == pin.chan &&
                pin.func != PTP_PF_NONE) {
                other.func = PTP_PF_NONE;
                other.chan = 0;
            }
        }
        pins.at(pin.index).func = pin.func;
        pins.at(pin.index).chan = pin.chan;
        return 0;
    }
    int request_extts(const ptp_extts_request& request) override {
        requests.push_back(request);
        return request.flags != 0 ? extts_error : 0;
    }
    int precise_offset(ptp_sys_offset_precise& sample) override {
        if (precise_error != 0) {
            return precise_error;
        }
        sample = take(precise);
        return 0;
    }
    int extended_offset(ptp_sys_offset_extended& sample) override {
        if (extended_error != 0) {
            return extended_error;
        }
        const auto triples = take(extended);
        sample.n_samples = static_cast<unsigned>(triples.size());
        for (std::size_t i = 0; i < triples.size(); ++i) {
            sample.ts[i][0] = clock_time(triples[i].before_ns);
            sample.ts[i][1] = clock_time(triples[i].phc_ns);
            sample.ts[i][2] = clock_time(triples[i].after_ns);
        }
        return 0;
    }
    int basic_offset(ptp_sys_offset& /*sample*/) override { return basic_error; }
    WaitResult wait(core::Duration /*timeout*/) override {
        return batches.empty() ? WaitResult::end_of_stream : WaitResult::ready;
    }
    long read_events(std::span<ptp_extts_event> out) override {
        if (read_error != 0) {
            return -read_error;
        }
        if (batches.empty()) {
            return -EAGAIN;
        }
        auto batch = std::move(batches.front());
        batches.pop_front();
        const std::size_t n = std::min(batch.size(), out.size());
        std::copy_n(batch.begin(), n, out.begin());
        return static_cast<long>(n);
    }

  private:
    template <typename T>
    static T take(std::deque<T>& queue) {
        T value = queue.front();
        if (queue.size() > 1) {
            queue.pop_front();
        }
        return value;
    }
};

// Lends a FakePhc to a source, so the test still holds the device after the source closed it
// (and can check what closing did).
class BorrowedPhc final : public PhcDevice {
  public:
    explicit BorrowedPhc(FakePhc& phc) : phc_(phc) {}
    int capabilities(ptp_clock_caps& c) override { return phc_.capabilities(c); }
    int pin_function(ptp_pin_desc& p) override { return phc_.pin_function(p); }
    int set_pin_function(const ptp_pin_desc& p) override { return phc_.set_pin_function(p); }
    int request_extts(const ptp_extts_request& r) override { return phc_.request_extts(r); }
    int precise_offset(ptp_sys_offset_precise& s) override { return phc_.precise_offset(s); }
    int extended_offset(ptp_sys_offset_extended& s) override { return phc_.extended_offset(s); }
    int basic_offset(ptp_sys_offset& s) override { return phc_.basic_offset(s); }
    WaitResult wait(core::Duration t) override { return phc_.wait(t); }
    long read_events(std::span<ptp_extts_event> o) override { return phc_.read_events(o); }

  private:
    FakePhc& phc_;
};

inline ptp_extts_event extts_event(std::int64_t phc_ns, unsigned channel = 0) {
    ptp_extts_event event{};
    event.t = clock_time(phc_ns);
    event.index = channel;
    return event;
}

}  // namespace ppsbench::capture::fake
