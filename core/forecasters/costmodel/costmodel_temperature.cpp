// Temperature scaling; see costmodel_temperature.h.
#include "core/forecasters/costmodel/costmodel_temperature.h"

#include <cmath>

namespace gpuf::costmodel {

bins::Distribution applyTemperature(const bins::Distribution &p, double temperature)
{
    if (temperature == 1.0)
        return p;
    const double inverse = 1.0 / temperature;
    // Scale by the largest value first so p^(1/T) cannot underflow to all zeros for small T.
    double largest = 0.0;
    for (double v : p)
        largest = std::max(largest, v);
    if (!(largest > 0))
        return p;
    bins::Distribution out {};
    double sum = 0.0;
    for (std::size_t b = 0; b < p.size(); ++b) {
        out[b] = p[b] > 0 ? std::pow(p[b] / largest, inverse) : 0.0;
        sum += out[b];
    }
    for (double &v : out)
        v /= sum;
    return out;
}

double meanNll(std::span<const bins::Distribution> predictions, std::span<const int> trueBins, double temperature)
{
    if (predictions.empty())
        return 0.0;
    double total = 0.0;
    for (std::size_t i = 0; i < predictions.size(); ++i) {
        const bins::Distribution p = applyTemperature(predictions[i], temperature);
        total -= std::log(std::max(p[std::size_t(trueBins[i] - 1)], 1e-12));
    }
    return total / double(predictions.size());
}

double fitTemperature(std::span<const bins::Distribution> predictions, std::span<const int> trueBins)
{
    if (predictions.empty() || predictions.size() != trueBins.size())
        return 1.0;
    const auto loss = [&](double logT) { return meanNll(predictions, trueBins, std::exp(logT)); };
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = std::log(kMinTemperature), b = std::log(kMaxTemperature);
    double c = b - ratio * (b - a), d = a + ratio * (b - a);
    double fc = loss(c), fd = loss(d);
    for (int i = 0; i < 80 && b - a > 1e-6; ++i) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = loss(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = loss(d);
        }
    }
    const double best = std::exp((a + b) / 2);
    // Never return a T that does worse than leaving the model alone (a flat loss near T = 1, ties).
    return loss(std::log(best)) <= loss(0.0) ? best : 1.0;
}

} // namespace gpuf::costmodel
