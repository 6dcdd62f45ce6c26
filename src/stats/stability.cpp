#include "ppsbench/stats/stability.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <type_traits>
#include <utility>

namespace ppsbench::stats {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The phase relative to its first present sample, with missing samples NaN: differences are
// unchanged and the running sums below then carry small numbers, so double is exact enough.
// Read through at() rather than copied: at 10 M samples a copy is 80 MB, and the subtraction
// is free next to the memory traffic.
struct Prepared {
    std::span<const double> raw;
    double reference = 0;
    bool any_missing = false;
    // Where the missing samples are, ascending, when they are few (else empty): MDEV then runs
    // the stretches that touch none of them without a NaN test per read.
    std::vector<std::size_t> holes;

    std::size_t size() const { return raw.size(); }
    double operator[](std::size_t i) const { return raw[i] - reference; }
};

Prepared prepare(std::span<const double> phase) {
    Prepared p;
    p.raw = phase;
    const auto first =
        std::find_if(phase.begin(), phase.end(), [](double v) { return !std::isnan(v); });
    p.reference = first == phase.end() ? 0.0 : *first;
    p.any_missing = first != phase.begin() ||
                    std::any_of(first, phase.end(), [](double v) { return std::isnan(v); });
    if (p.any_missing) {
        const std::size_t most = phase.size() / 16;  // denser holes leave no long stretches
        for (std::size_t i = 0; i < phase.size(); ++i) {
            if (std::isnan(phase[i])) {
                if (p.holes.size() == most) {
                    p.holes = {};
                    break;
                }
                p.holes.push_back(i);
            }
        }
    }
    return p;
}

// The Allan family of up to four taus in one pass. Each tau's running sums are serial chains,
// so one tau at a time waits on add latency, and its three or four sample streams are read
// from memory separately; taken together (octave taus share streams: x[j + 2m] for m is
// x[j + m'] for m' = 2m) the pipeline fills and memory is read about half as often. Every tau
// still sees exactly the operations, in the order, of computing it alone.
constexpr std::size_t max_group = 4;

// G is a compile-time group size so that each tau's accumulators live in registers.
template <std::size_t G>
void adev_group(const Prepared& x, double tau0, std::span<const std::size_t> ms, double* out) {
    const std::size_t n = x.size();
    constexpr std::size_t g = G;
    double lanes[max_group][2] = {};
    std::size_t terms[max_group] = {};
    std::size_t count[max_group] = {};
    std::size_t common = n;
    for (std::size_t q = 0; q < g; ++q) {
        count[q] = n - 2 * ms[q];
        common = std::min(common, count[q]);
    }
    std::size_t start = 0;  // where each tau continues on its own
    if (!x.any_missing) {
        start = common - common % 2;
        for (std::size_t i = 0; i < start; i += 2) {
            for (std::size_t q = 0; q < g; ++q) {
                const std::size_t m = ms[q];
                const double d0 = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
                const double d1 = x[i + 1 + 2 * m] - 2.0 * x[i + 1 + m] + x[i + 1];
                lanes[q][0] += d0 * d0;
                lanes[q][1] += d1 * d1;
            }
        }
        for (std::size_t q = 0; q < g; ++q) {
            const std::size_t m = ms[q];
            std::size_t i = start;
            for (; i + 2 <= count[q]; i += 2) {
                const double d0 = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
                const double d1 = x[i + 1 + 2 * m] - 2.0 * x[i + 1 + m] + x[i + 1];
                lanes[q][0] += d0 * d0;
                lanes[q][1] += d1 * d1;
            }
            for (; i < count[q]; ++i) {
                const double d = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
                lanes[q][0] += d * d;
            }
            terms[q] = count[q];
        }
    } else {
        start = common;
        for (std::size_t i = 0; i < start; ++i) {
            for (std::size_t q = 0; q < g; ++q) {
                const std::size_t m = ms[q];
                const double d = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
                if (!std::isnan(d)) {
                    lanes[q][0] += d * d;
                    ++terms[q];
                }
            }
        }
        for (std::size_t q = 0; q < g; ++q) {
            const std::size_t m = ms[q];
            for (std::size_t i = start; i < count[q]; ++i) {
                const double d = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
                if (!std::isnan(d)) {
                    lanes[q][0] += d * d;
                    ++terms[q];
                }
            }
        }
    }
    for (std::size_t q = 0; q < g; ++q) {
        if (terms[q] == 0) {
            out[q] = nan;
            continue;
        }
        const double tau = static_cast<double>(ms[q]) * tau0;
        out[q] = std::sqrt((lanes[q][0] + lanes[q][1]) / static_cast<double>(terms[q]) /
                           (2.0 * tau * tau));
    }
}

template <std::size_t G>
void mdev_group(const Prepared& x, double tau0, std::span<const std::size_t> ms, double* out) {
    const std::size_t n = x.size();
    constexpr std::size_t g = G;
    // inner_j = Σ_{i=j}^{j+m−1} (x_{i+2m} − 2x_{i+m} + x_i); going from j to j+1 adds the term at
    // i = j+m and drops the one at i = j, i.e. inner += x_{j+3m} − 3x_{j+2m} + 3x_{j+m} − x_j.
    // Missing samples count as zero inside the running sum (keeping the update exact) and a
    // running count of them in the 3m-sample span decides whether the term is used.
    auto v = [&](std::size_t i) {
        const double value = x[i];
        return std::isnan(value) ? 0.0 : value;
    };
    auto missing = [&](std::size_t i) -> std::size_t { return std::isnan(x[i]) ? 1 : 0; };
    double inner[max_group] = {};
    double sum[max_group] = {};
    std::size_t terms[max_group] = {};
    std::size_t missing_in_span[max_group] = {};
    std::size_t last[max_group] = {};
    std::size_t common = n;
    for (std::size_t q = 0; q < g; ++q) {
        const std::size_t m = ms[q];
        for (std::size_t i = 0; i < m; ++i) {
            inner[q] += v(i + 2 * m) - 2 * v(i + m) + v(i);
        }
        if (x.any_missing) {
            for (std::size_t i = 0; i < 3 * m; ++i) {
                missing_in_span[q] += missing(i);
            }
        }
        last[q] = n - 3 * m;
        common = std::min(common, last[q]);
    }
    if (!x.any_missing) {
        for (std::size_t j = 0; j < common; ++j) {
            const double xj = x[j];
            for (std::size_t q = 0; q < g; ++q) {
                const std::size_t m = ms[q];
                sum[q] += inner[q] * inner[q];
                inner[q] += x[j + 3 * m] - 3 * x[j + 2 * m] + 3 * x[j + m] - xj;
            }
        }
        for (std::size_t q = 0; q < g; ++q) {
            const std::size_t m = ms[q];
            for (std::size_t j = common; j < last[q]; ++j) {
                sum[q] += inner[q] * inner[q];
                inner[q] += x[j + 3 * m] - 3 * x[j + 2 * m] + 3 * x[j + m] - x[j];
            }
            sum[q] += inner[q] * inner[q];
            terms[q] = last[q] + 1;
        }
    } else {
        // Between holes: every read in x[j, j + 3m] of every tau is present for j < stop, so
        // v() is x[] and the missing counts stay as they are; the same operations in the same
        // order as the general step below, without its NaN tests.
        std::size_t cursor[max_group][4] = {};  // per tau and offset: next hole at or past j + o
        std::size_t j = 0;
        auto stretch_end = [&] {
            std::size_t stop = common;
            for (std::size_t q = 0; q < g; ++q) {
                for (std::size_t o = 0; o < 4; ++o) {
                    const std::size_t offset = o * ms[q];
                    std::size_t& c = cursor[q][o];
                    while (c < x.holes.size() && x.holes[c] < j + offset) {
                        ++c;
                    }
                    if (c < x.holes.size()) {
                        stop = std::min(stop, x.holes[c] - offset);
                    }
                }
            }
            return stop;
        };
        while (j < common) {
            if (!x.holes.empty()) {
                const std::size_t stop = stretch_end();
                for (; j < stop; ++j) {
                    const double xj = x[j];
                    for (std::size_t q = 0; q < g; ++q) {
                        const std::size_t m = ms[q];
                        if (missing_in_span[q] == 0) {
                            sum[q] += inner[q] * inner[q];
                            ++terms[q];
                        }
                        inner[q] += x[j + 3 * m] - 3 * x[j + 2 * m] + 3 * x[j + m] - xj;
                    }
                }
                if (j == common) {
                    break;
                }
            }
            const double vj = v(j);
            const std::size_t mj = missing(j);
            for (std::size_t q = 0; q < g; ++q) {
                const std::size_t m = ms[q];
                if (missing_in_span[q] == 0) {
                    sum[q] += inner[q] * inner[q];
                    ++terms[q];
                }
                inner[q] += v(j + 3 * m) - 3 * v(j + 2 * m) + 3 * v(j + m) - vj;
                missing_in_span[q] += missing(j + 3 * m);
                missing_in_span[q] -= mj;
            }
            ++j;
        }
        for (std::size_t q = 0; q < g; ++q) {
            const std::size_t m = ms[q];
            for (std::size_t j = common;; ++j) {
                if (missing_in_span[q] == 0) {
                    sum[q] += inner[q] * inner[q];
                    ++terms[q];
                }
                if (j == last[q]) {
                    break;
                }
                inner[q] += v(j + 3 * m) - 3 * v(j + 2 * m) + 3 * v(j + m) - v(j);
                missing_in_span[q] += missing(j + 3 * m);
                missing_in_span[q] -= missing(j);
            }
        }
    }
    for (std::size_t q = 0; q < g; ++q) {
        if (terms[q] == 0) {
            out[q] = nan;
            continue;
        }
        const double tau = static_cast<double>(ms[q]) * tau0;
        const auto md = static_cast<double>(ms[q]);
        out[q] = std::sqrt(sum[q] / static_cast<double>(terms[q]) / (2.0 * md * md * tau * tau));
    }
}

// One measure at every factor, in groups of up to four valid taus; `valid(m)` says whether m
// gives a value at all (else NaN, as the single-tau functions return).
template <typename Group, typename Valid>
std::vector<double> grouped(const Prepared& p, double tau0, std::span<const std::size_t> factors,
                            Group group, Valid valid) {
    std::vector<double> out(factors.size(), nan);
    std::vector<std::size_t> ms;
    std::vector<std::size_t> where;
    auto flush = [&] {
        double values[max_group];
        switch (ms.size()) {
            case 1:
                group(std::integral_constant<std::size_t, 1>{}, p, tau0, ms, values);
                break;
            case 2:
                group(std::integral_constant<std::size_t, 2>{}, p, tau0, ms, values);
                break;
            case 3:
                group(std::integral_constant<std::size_t, 3>{}, p, tau0, ms, values);
                break;
            default:
                group(std::integral_constant<std::size_t, 4>{}, p, tau0, ms, values);
                break;
        }
        for (std::size_t q = 0; q < ms.size(); ++q) {
            out[where[q]] = values[q];
        }
        ms.clear();
        where.clear();
    };
    for (std::size_t i = 0; i < factors.size(); ++i) {
        if (!valid(factors[i])) {
            continue;
        }
        ms.push_back(factors[i]);
        where.push_back(i);
        if (ms.size() == max_group) {
            flush();
        }
    }
    if (!ms.empty()) {
        flush();
    }
    return out;
}

std::vector<double> adev_all(const Prepared& p, double tau0, std::span<const std::size_t> factors) {
    const std::size_t n = p.size();
    return grouped(
        p, tau0, factors,
        [](auto size, const Prepared& x, double t, std::span<const std::size_t> ms, double* out) {
            adev_group<decltype(size)::value>(x, t, ms, out);
        },
        [n](std::size_t m) { return m != 0 && n >= 2 * m + 1; });
}

std::vector<double> mdev_all(const Prepared& p, double tau0, std::span<const std::size_t> factors) {
    const std::size_t n = p.size();
    return grouped(
        p, tau0, factors,
        [](auto size, const Prepared& x, double t, std::span<const std::size_t> ms, double* out) {
            mdev_group<decltype(size)::value>(x, t, ms, out);
        },
        [n](std::size_t m) { return m != 0 && n >= 3 * m; });
}

}  // namespace

std::vector<double> overlapping_adev(std::span<const double> phase_s, double tau0_s,
                                     std::span<const std::size_t> factors) {
    return adev_all(prepare(phase_s), tau0_s, factors);
}

std::vector<double> modified_adev(std::span<const double> phase_s, double tau0_s,
                                  std::span<const std::size_t> factors) {
    return mdev_all(prepare(phase_s), tau0_s, factors);
}

std::vector<double> time_deviation(std::span<const double> phase_s, double tau0_s,
                                   std::span<const std::size_t> factors) {
    std::vector<double> out = modified_adev(phase_s, tau0_s, factors);
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] *= static_cast<double>(factors[i]) * tau0_s / std::sqrt(3.0);
    }
    return out;
}

namespace {

// Missing samples are ±inf in the extremes, never chosen.
double high_of(double v) {
    return std::isnan(v) ? -INFINITY : v;
}
double low_of(double v) {
    return std::isnan(v) ? INFINITY : v;
}

// Windows of up to small_window samples: doubling tables (after k doublings high[i] / low[i]
// hold the extremes of x[i, i + 2^k); a window of w samples, 2^k <= w < 2^(k+1), is the union
// of the 2^k-spans at i and i + w − 2^k), built over one cache-sized chunk of window starts at
// a time, so the tables never leave the cache and never grow with the run.
constexpr std::size_t small_window = 8193;
constexpr std::size_t chunk_starts = 32768;

void mtie_small(std::span<const double> x, std::span<const std::size_t> factors,
                std::span<const std::size_t> order, std::vector<double>& best) {
    const std::size_t n = x.size();
    std::vector<double> high(chunk_starts + small_window);
    std::vector<double> low(chunk_starts + small_window);
    for (std::size_t c = 0; c < n; c += chunk_starts) {
        const std::size_t length = std::min(n, c + chunk_starts + small_window - 1) - c;
        for (std::size_t i = 0; i < length; ++i) {
            high[i] = high_of(x[c + i]);
            low[i] = low_of(x[c + i]);
        }
        std::size_t span = 1;
        for (std::size_t index : order) {
            const std::size_t width = factors[index] + 1;
            if (factors[index] == 0 || width > n || width > small_window || c + width > n) {
                continue;
            }
            while (2 * span <= width) {
                for (std::size_t i = 0; i + 2 * span <= length; ++i) {
                    high[i] = std::max(high[i], high[i + span]);
                    low[i] = std::min(low[i], low[i + span]);
                }
                span *= 2;
            }
            const std::size_t shift = width - span;
            const std::size_t starts = std::min(c + chunk_starts, n - width + 1) - c;
            // Four running maxima, not one: a single max chain waits on its own latency, and
            // the order of exact max operations does not change the result.
            double lanes[4] = {best[index], best[index], best[index], best[index]};
            std::size_t i = 0;
            for (; i + 4 <= starts; i += 4) {
                for (std::size_t l = 0; l < 4; ++l) {
                    const double top = std::max(high[i + l], high[i + l + shift]);
                    const double bottom = std::min(low[i + l], low[i + l + shift]);
                    lanes[l] = std::max(lanes[l], top - bottom);  // −inf: no sample
                }
            }
            for (; i < starts; ++i) {
                const double top = std::max(high[i], high[i + shift]);
                const double bottom = std::min(low[i], low[i + shift]);
                lanes[0] = std::max(lanes[0], top - bottom);
            }
            best[index] = std::max(std::max(lanes[0], lanes[1]), std::max(lanes[2], lanes[3]));
        }
    }
}

// Longer windows: van Herk / Gil-Werman. Cut the series into blocks of w samples; a window
// starting at offset j of a block is the block's suffix from j plus the next block's prefix
// up to j − 1, so with one block's suffix extremes in a buffer and the prefix extremes kept
// running, every window costs O(1): O(N) per tau and 2·w extra samples.
double mtie_large(std::span<const double> x, std::size_t width, std::vector<double>& suffix_high,
                  std::vector<double>& suffix_low) {
    // Each running extreme is a serial chain of max/min operations; every loop below runs two
    // independent chains (the two halves of a block) side by side and joins them afterwards,
    // which is exact because max and min are.
    const std::size_t n = x.size();
    suffix_high.resize(width);
    suffix_low.resize(width);
    double* sh = suffix_high.data();
    double* sl = suffix_low.data();
    double best_a = -1.0;
    double best_b = -1.0;
    const std::size_t mid = width / 2;  // first half [0, mid), second [mid, width)
    for (std::size_t block = 0; block + width <= n; block += width) {
        const double* b = x.data() + block;
        // Suffix extremes within the block: both halves at once, then the first half lifted
        // by the second half's extremes.
        sh[width - 1] = high_of(b[width - 1]);
        sl[width - 1] = low_of(b[width - 1]);
        sh[mid - 1] = high_of(b[mid - 1]);
        sl[mid - 1] = low_of(b[mid - 1]);
        std::size_t t = 1;
        for (; t < mid; ++t) {
            const std::size_t j2 = width - 1 - t;
            const std::size_t j1 = mid - 1 - t;
            sh[j2] = std::max(high_of(b[j2]), sh[j2 + 1]);
            sl[j2] = std::min(low_of(b[j2]), sl[j2 + 1]);
            sh[j1] = std::max(high_of(b[j1]), sh[j1 + 1]);
            sl[j1] = std::min(low_of(b[j1]), sl[j1 + 1]);
        }
        for (; t < width - mid; ++t) {
            const std::size_t j2 = width - 1 - t;
            sh[j2] = std::max(high_of(b[j2]), sh[j2 + 1]);
            sl[j2] = std::min(low_of(b[j2]), sl[j2 + 1]);
        }
        const double second_high = sh[mid];
        const double second_low = sl[mid];
        for (std::size_t j = 0; j < mid; ++j) {
            sh[j] = std::max(sh[j], second_high);
            sl[j] = std::min(sl[j], second_low);
        }
        best_a = std::max(best_a, sh[0] - sl[0]);  // the window that is the block; −inf: empty

        // Windows starting at j = 1 … last add the next block's first j samples. Split the j
        // range at split: the second part's prefix starts from the extremes of the samples
        // before it (a reduction, no chain), so the two parts run side by side.
        const double* next = b + width;
        const std::size_t last = std::min(width - 1, n - width - block);
        if (last == 0) {
            continue;
        }
        const std::size_t split = (last + 1) / 2 + 1;  // part A: j in [1, split), B: [split, last]
        double reduce_high[2] = {-INFINITY, -INFINITY};
        double reduce_low[2] = {INFINITY, INFINITY};
        std::size_t i = 0;
        for (; i + 2 <= split - 1; i += 2) {
            reduce_high[0] = std::max(reduce_high[0], high_of(next[i]));
            reduce_low[0] = std::min(reduce_low[0], low_of(next[i]));
            reduce_high[1] = std::max(reduce_high[1], high_of(next[i + 1]));
            reduce_low[1] = std::min(reduce_low[1], low_of(next[i + 1]));
        }
        for (; i < split - 1; ++i) {
            reduce_high[0] = std::max(reduce_high[0], high_of(next[i]));
            reduce_low[0] = std::min(reduce_low[0], low_of(next[i]));
        }
        double high_a = -INFINITY;
        double low_a = INFINITY;
        double high_b = std::max(reduce_high[0], reduce_high[1]);
        double low_b = std::min(reduce_low[0], reduce_low[1]);
        std::size_t ja = 1;
        std::size_t jb = split;
        for (; ja < split && jb <= last; ++ja, ++jb) {
            high_a = std::max(high_a, high_of(next[ja - 1]));
            low_a = std::min(low_a, low_of(next[ja - 1]));
            high_b = std::max(high_b, high_of(next[jb - 1]));
            low_b = std::min(low_b, low_of(next[jb - 1]));
            best_a = std::max(best_a, std::max(sh[ja], high_a) - std::min(sl[ja], low_a));
            best_b = std::max(best_b, std::max(sh[jb], high_b) - std::min(sl[jb], low_b));
        }
        for (; ja < split; ++ja) {
            high_a = std::max(high_a, high_of(next[ja - 1]));
            low_a = std::min(low_a, low_of(next[ja - 1]));
            best_a = std::max(best_a, std::max(sh[ja], high_a) - std::min(sl[ja], low_a));
        }
        for (; jb <= last; ++jb) {
            high_b = std::max(high_b, high_of(next[jb - 1]));
            low_b = std::min(low_b, low_of(next[jb - 1]));
            best_b = std::max(best_b, std::max(sh[jb], high_b) - std::min(sl[jb], low_b));
        }
    }
    return std::max(best_a, best_b);
}

}  // namespace

std::vector<double> mtie(std::span<const double> phase_s, std::span<const std::size_t> factors) {
    const std::size_t n = phase_s.size();
    // Exact either way (the result is a max − min of two samples); the two methods only trade
    // speed and memory: neither needs more than a few hundred kB plus 2·w samples.
    std::vector<std::size_t> order(factors.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return factors[a] < factors[b]; });
    std::vector<double> best(factors.size(), -1.0);
    mtie_small(phase_s, factors, order, best);
    std::vector<double> suffix_high;
    std::vector<double> suffix_low;
    for (std::size_t index = 0; index < factors.size(); ++index) {
        const std::size_t width = factors[index] + 1;
        if (factors[index] != 0 && width <= n && width > small_window) {
            best[index] = mtie_large(phase_s, width, suffix_high, suffix_low);
        }
    }
    std::vector<double> result(factors.size(), nan);
    for (std::size_t index = 0; index < factors.size(); ++index) {
        const std::size_t width = factors[index] + 1;
        if (factors[index] != 0 && width <= n && best[index] >= 0.0) {
            result[index] = best[index];
        }
    }
    return result;
}

Stability compute_stability(std::span<const double> phase_s, double tau0_s,
                            std::span<const std::size_t> factors) {
    Stability s;
    s.tau0_s = tau0_s;
    s.factors.assign(factors.begin(), factors.end());
    for (std::size_t m : factors) {
        s.tau_s.push_back(static_cast<double>(m) * tau0_s);
    }
    // Two cores, three measures that only read the phase: MDEV on a second thread, MTIE here,
    // and ADEV's taus split between them (MTIE costs about as much as MDEV, ADEV a little
    // under either). Each tau is computed exactly as it would be alone, in whichever group.
    const Prepared p = prepare(phase_s);
    const std::size_t adev_here = std::min(factors.size(), (factors.size() / 2 + 3) / 4 * 4);
    auto second = std::async(std::launch::async, [&p, tau0_s, factors, adev_here] {
        return std::pair(mdev_all(p, tau0_s, factors),
                         adev_all(p, tau0_s, factors.subspan(adev_here)));
    });
    s.adev = adev_all(p, tau0_s, factors.first(adev_here));
    s.mtie_s = mtie(phase_s, factors);
    auto [mdev, adev_rest] = second.get();
    s.mdev = std::move(mdev);
    s.adev.insert(s.adev.end(), adev_rest.begin(), adev_rest.end());
    s.tdev_s = s.mdev;
    for (std::size_t i = 0; i < factors.size(); ++i) {
        s.tdev_s[i] *= s.tau_s[i] / std::sqrt(3.0);
    }
    s.missing_samples = static_cast<std::size_t>(
        std::count_if(phase_s.begin(), phase_s.end(), [](double v) { return std::isnan(v); }));
    return s;
}

Stability compute_stability(std::span<const double> phase_s, double tau0_s) {
    const auto factors = octave_factors(phase_s.size());
    return compute_stability(phase_s, tau0_s, factors);
}

std::vector<std::size_t> octave_factors(std::size_t samples) {
    std::vector<std::size_t> factors;
    if (samples < 5) {
        return factors;
    }
    for (std::size_t m = 1; m <= (samples - 1) / 4; m *= 2) {
        factors.push_back(m);
    }
    return factors;
}

}  // namespace ppsbench::stats
