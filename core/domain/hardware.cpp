// Hardware presets. A100 and L40S rows are the ones the published prompts showed (paper-facts §11);
// H100, H200 and B200 rows are vendor datasheet values, replaced by driver readings for a local GPU.
#include "core/domain/hardware.h"

namespace gpuf {

QList<Hardware> hardwarePresets()
{
    constexpr qint64 kKiB = 1024;
    constexpr qint64 kMiB = 1024 * kKiB;
    auto make = [](const char *name, const char *cc, int sms, int threads, double clock, double memClock, int bus,
                    double memGb, qint64 l2, qint64 smem) {
        Hardware h;
        h.name = QString::fromLatin1(name);
        h.computeCapability = QString::fromLatin1(cc);
        h.smCount = sms;
        h.maxThreadsPerSm = threads;
        h.clockGhz = clock;
        h.memoryClockGhz = memClock;
        h.busWidthBits = bus;
        h.globalMemoryGb = memGb;
        h.l2Bytes = l2;
        h.sharedMemoryPerSm = smem;
        return h;
    };
    return {
        make("NVIDIA A100-SXM4-80GB", "8.0", 108, 2048, 1.41, 1.512, 5120, 80.0, 40 * kMiB, 164 * kKiB),
        make("NVIDIA L40S", "8.9", 142, 1536, 2.52, 9.0, 384, 44.5, 96 * kMiB, 100 * kKiB),
        make("NVIDIA H100 80GB HBM3", "9.0", 132, 2048, 1.98, 2.619, 5120, 79.6, 50 * kMiB, 228 * kKiB),
        make("NVIDIA H200", "9.0", 132, 2048, 1.98, 3.201, 6144, 140.4, 60 * kMiB, 228 * kKiB),
        make("NVIDIA B200", "10.0", 148, 2048, 1.965, 4.0, 8192, 178.4, 126 * kMiB, 228 * kKiB),
    };
}

std::optional<Hardware> hardwarePreset(const QString &nameOrAlias)
{
    // "A100", "a100-sxm4-80gb" and "NVIDIA A100-SXM4-80GB" all name the same preset.
    auto normalised = [](const QString &text) {
        return text.trimmed().toUpper().remove(QLatin1StringView("NVIDIA")).remove(QLatin1Char(' '));
    };
    const QString key = normalised(nameOrAlias);
    if (key.isEmpty())
        return std::nullopt;
    for (const Hardware &h : hardwarePresets()) {
        if (normalised(h.name).startsWith(key))
            return h;
    }
    return std::nullopt;
}

} // namespace gpuf

namespace gpuf {

QString precisionName(Precision precision)
{
    switch (precision) {
    case Precision::Fp32:
        return QStringLiteral("FP32");
    case Precision::Fp16:
        return QStringLiteral("FP16");
    case Precision::Bf16:
        return QStringLiteral("BF16");
    case Precision::Fp8:
        return QStringLiteral("FP8");
    }
    return {};
}

double PeakRates::tflops(Precision precision) const
{
    switch (precision) {
    case Precision::Fp32:
        return fp32Tflops;
    case Precision::Fp16:
        return fp16TensorTflops;
    case Precision::Bf16:
        return bf16TensorTflops;
    case Precision::Fp8:
        return fp8TensorTflops;
    }
    return 0.0;
}

std::optional<PeakRates> datasheetPeakRates(const QString &nameOrAlias)
{
    const std::optional<Hardware> preset = hardwarePreset(nameOrAlias);
    if (!preset)
        return std::nullopt;
    struct Row
    {
        const char *preset;
        double bandwidth, fp32, fp16, bf16, fp8;
        const char *source;
    };
    // Vendor datasheet figures per GPU, dense (the datasheets print tensor rates "with sparsity", twice these).
    static const Row rows[] = {
        // NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM column: 2,039 GB/s, FP32 19.5 TFLOPS, FP16/BF16 tensor
        // 312 TFLOPS; Ampere has no FP8 tensor cores.
        {"NVIDIA A100-SXM4-80GB", 2039.0, 19.5, 312.0, 312.0, 0.0, "NVIDIA A100 datasheet (80GB SXM)"},
        // NVIDIA L40S datasheet: 864 GB/s, FP32 91.6 TFLOPS, FP16/BF16 tensor 362.05, FP8 733 TFLOPS.
        {"NVIDIA L40S", 864.0, 91.6, 362.05, 362.05, 733.0, "NVIDIA L40S datasheet"},
        // NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column: 3.35 TB/s, FP32 67 TFLOPS, FP16/BF16 tensor 989.5,
        // FP8 1,979 TFLOPS.
        {"NVIDIA H100 80GB HBM3", 3350.0, 67.0, 989.5, 989.5, 1979.0, "NVIDIA H100 datasheet (SXM)"},
        // NVIDIA H200 Tensor Core GPU datasheet, H200 SXM column: 4.8 TB/s, FP32 67 TFLOPS, FP16/BF16 tensor 989.5,
        // FP8 1,979 TFLOPS.
        {"NVIDIA H200", 4800.0, 67.0, 989.5, 989.5, 1979.0, "NVIDIA H200 datasheet (SXM)"},
        // NVIDIA HGX B200 specifications, per GPU: 7.7 TB/s, FP32 75 TFLOPS, FP16/BF16 tensor 2.25 PFLOPS, FP8 4.5
        // PFLOPS.
        {"NVIDIA B200", 7700.0, 75.0, 2250.0, 2250.0, 4500.0, "NVIDIA HGX B200 specifications (per GPU)"},
    };
    for (const Row &row : rows) {
        if (preset->name != QLatin1StringView(row.preset))
            continue;
        PeakRates rates;
        rates.bandwidthGBs = row.bandwidth;
        rates.fp32Tflops = row.fp32;
        rates.fp16TensorTflops = row.fp16;
        rates.bf16TensorTflops = row.bf16;
        rates.fp8TensorTflops = row.fp8;
        rates.fromDatasheet = true;
        rates.source = QString::fromLatin1(row.source);
        return rates;
    }
    return std::nullopt;
}

namespace {

// FP32 lanes per SM by compute capability (CUDA C++ Programming Guide, arithmetic instruction throughput); 0 for
// architectures not listed, so no rate is made up.
int fp32LanesPerSm(const QString &computeCapability)
{
    const QStringList parts = computeCapability.split(QLatin1Char('.'));
    if (parts.size() != 2)
        return 0;
    const int major = parts[0].toInt();
    const int minor = parts[1].toInt();
    if (major == 7 || (major == 8 && minor == 0))
        return 64;
    if (major >= 8 && major <= 12)
        return 128;
    return 0;
}

} // namespace

PeakRates peakRatesOf(const Hardware &hardware)
{
    if (std::optional<PeakRates> rates = datasheetPeakRates(hardware.name))
        return *rates;
    PeakRates rates;
    // Double data rate: two transfers per memory clock over the whole bus.
    rates.bandwidthGBs = 2.0 * hardware.memoryClockGhz * hardware.busWidthBits / 8.0;
    rates.fp32Tflops = hardware.smCount * fp32LanesPerSm(hardware.computeCapability) * 2.0 * hardware.clockGhz / 1e3;
    rates.source = QStringLiteral("derived from the device (memory clock × bus width, SMs × clock)");
    return rates;
}

} // namespace gpuf
