#include "ppsbench/stats/stability.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ppsbench::stats {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The phase relative to its first present sample, with missing samples NaN: differences are
// unchanged and the running sums below then carry small numbers, so double is exact enough.
struct Prepared {
    std::vector<double> x;
    bool any_missing = false;
};

Prepared prepare(std::span<const double> phase) {
    Prepared p;
    p.x.assign(phase.begin(), phase.end());
    const auto first =
        std::find_if(phase.begin(), phase.end(), [](double v) { return !std::isnan(v); });
    const double reference = first == phase.end() ? 0.0 : *first;
    for (double& v : p.x) {
        p.any_missing |= std::isnan(v);
        v -= reference;
    }
    return p;
}

double adev_one(const Prepared& p, double tau0, std::size_t m) {
    const std::vector<double>& x = p.x;
    const std::size_t n = x.size();
    if (m == 0 || n < 2 * m + 1) {
        return nan;
    }
    double lanes[2] = {0, 0};
    std::size_t terms = 0;
    const std::size_t count = n - 2 * m;
    if (!p.any_missing) {
        std::size_t i = 0;
        for (; i + 2 <= count; i += 2) {
            const double d0 = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
            const double d1 = x[i + 1 + 2 * m] - 2.0 * x[i + 1 + m] + x[i + 1];
            lanes[0] += d0 * d0;
            lanes[1] += d1 * d1;
        }
        for (; i < count; ++i) {
            const double d = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
            lanes[0] += d * d;
        }
        terms = count;
    } else {
        for (std::size_t i = 0; i < count; ++i) {
            const double d = x[i + 2 * m] - 2.0 * x[i + m] + x[i];
            if (!std::isnan(d)) {
                lanes[0] += d * d;
                ++terms;
            }
        }
    }
    if (terms == 0) {
        return nan;
    }
    const double tau = static_cast<double>(m) * tau0;
    return std::sqrt((lanes[0] + lanes[1]) / static_cast<double>(terms) / (2.0 * tau * tau));
}

double mdev_one(const Prepared& p, double tau0, std::size_t m) {
    const std::vector<double>& x = p.x;
    const std::size_t n = x.size();
    if (m == 0 || n < 3 * m) {
        return nan;
    }
    // inner_j = Σ_{i=j}^{j+m−1} (x_{i+2m} − 2x_{i+m} + x_i); going from j to j+1 adds the term at
    // i = j+m and drops the one at i = j, i.e. inner += x_{j+3m} − 3x_{j+2m} + 3x_{j+m} − x_j.
    // Missing samples count as zero inside the running sum (keeping the update exact) and a
    // running count of them in the 3m-sample span decides whether the term is used.
    auto v = [&](std::size_t i) { return std::isnan(x[i]) ? 0.0 : x[i]; };
    auto missing = [&](std::size_t i) -> std::size_t { return std::isnan(x[i]) ? 1 : 0; };
    double inner = 0;
    std::size_t missing_in_span = 0;
    for (std::size_t i = 0; i < m; ++i) {
        inner += v(i + 2 * m) - 2 * v(i + m) + v(i);
    }
    double sum = 0;
    std::size_t terms = 0;
    const std::size_t last = n - 3 * m;  // the last j
    if (!p.any_missing) {
        for (std::size_t j = 0; j < last; ++j) {
            sum += inner * inner;
            inner += x[j + 3 * m] - 3 * x[j + 2 * m] + 3 * x[j + m] - x[j];
        }
        sum += inner * inner;
        terms = last + 1;
    } else {
        for (std::size_t i = 0; i < 3 * m; ++i) {
            missing_in_span += missing(i);
        }
        for (std::size_t j = 0;; ++j) {
            if (missing_in_span == 0) {
                sum += inner * inner;
                ++terms;
            }
            if (j == last) {
                break;
            }
            inner += v(j + 3 * m) - 3 * v(j + 2 * m) + 3 * v(j + m) - v(j);
            missing_in_span += missing(j + 3 * m);
            missing_in_span -= missing(j);
        }
    }
    if (terms == 0) {
        return nan;
    }
    const double tau = static_cast<double>(m) * tau0;
    const auto md = static_cast<double>(m);
    return std::sqrt(sum / static_cast<double>(terms) / (2.0 * md * md * tau * tau));
}

}  // namespace

std::vector<double> overlapping_adev(std::span<const double> phase_s, double tau0_s,
                                     std::span<const std::size_t> factors) {
    const Prepared p = prepare(phase_s);
    std::vector<double> out;
    out.reserve(factors.size());
    for (std::size_t m : factors) {
        out.push_back(adev_one(p, tau0_s, m));
    }
    return out;
}

std::vector<double> modified_adev(std::span<const double> phase_s, double tau0_s,
                                  std::span<const std::size_t> factors) {
    const Prepared p = prepare(phase_s);
    std::vector<double> out;
    out.reserve(factors.size());
    for (std::size_t m : factors) {
        out.push_back(mdev_one(p, tau0_s, m));
    }
    return out;
}

std::vector<double> time_deviation(std::span<const double> phase_s, double tau0_s,
                                   std::span<const std::size_t> factors) {
    std::vector<double> out = modified_adev(phase_s, tau0_s, factors);
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] *= static_cast<double>(factors[i]) * tau0_s / std::sqrt(3.0);
    }
    return out;
}

std::vector<double> mtie(std::span<const double> phase_s, std::span<const std::size_t> factors) {
    const std::size_t n = phase_s.size();
    std::vector<double> result(factors.size(), nan);
    // Doubling tables: after k doublings, high[i] / low[i] hold the max / min of x[i, i + 2^k).
    // A window of w samples (2^k <= w < 2^(k+1)) is the union of the two 2^k-spans starting at
    // i and at i + w − 2^k, so its extremes are O(1) per position. Taus are visited in
    // ascending order so the tables only ever grow. Missing samples are ±inf, never extremes.
    std::vector<std::size_t> order(factors.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return factors[a] < factors[b]; });
    std::vector<double> high(n);
    std::vector<double> low(n);
    for (std::size_t i = 0; i < n; ++i) {
        const bool missing = std::isnan(phase_s[i]);
        high[i] = missing ? -INFINITY : phase_s[i];
        low[i] = missing ? INFINITY : phase_s[i];
    }
    std::size_t span = 1;
    for (std::size_t index : order) {
        const std::size_t width = factors[index] + 1;
        if (factors[index] == 0 || width > n) {
            continue;
        }
        // Double the tables until span <= width < 2·span, then scan the windows. The last
        // doubling and the scan share one pass over memory (the tables do not fit in cache for
        // long runs): the window at i needs the new entries i and i + shift, so it is scored
        // `shift` steps behind the update.
        while (4 * span <= width) {
            for (std::size_t i = 0; i + 2 * span <= n; ++i) {
                high[i] = std::max(high[i], high[i + span]);
                low[i] = std::min(low[i], low[i + span]);
            }
            span *= 2;
        }
        double best = -1.0;
        auto score = [&](std::size_t i, std::size_t shift) {
            const double top = std::max(high[i], high[i + shift]);
            const double bottom = std::min(low[i], low[i + shift]);
            best = std::max(best, top - bottom);  // −inf when the window has no sample
        };
        if (2 * span <= width) {
            const std::size_t half = span;
            span *= 2;
            const std::size_t shift = width - span;
            const std::size_t updated = n - span + 1;  // entries with a full new span
            for (std::size_t i = 0; i < updated; ++i) {
                high[i] = std::max(high[i], high[i + half]);
                low[i] = std::min(low[i], low[i + half]);
                if (i >= shift) {
                    score(i - shift, shift);
                }
            }
            for (std::size_t i = updated >= shift ? updated - shift : 0; i + width <= n; ++i) {
                score(i, shift);
            }
        } else {
            const std::size_t shift = width - span;
            for (std::size_t i = 0; i + width <= n; ++i) {
                score(i, shift);
            }
        }
        result[index] = best >= 0.0 ? best : nan;
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
    {
        // One reference-subtracted copy for both, released before MTIE allocates its tables:
        // peak memory stays at three extra samples' worth per pulse.
        const Prepared p = prepare(phase_s);
        for (std::size_t m : factors) {
            s.adev.push_back(adev_one(p, tau0_s, m));
            s.mdev.push_back(mdev_one(p, tau0_s, m));
        }
    }
    s.tdev_s = s.mdev;
    for (std::size_t i = 0; i < factors.size(); ++i) {
        s.tdev_s[i] *= s.tau_s[i] / std::sqrt(3.0);
    }
    s.mtie_s = mtie(phase_s, factors);
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
