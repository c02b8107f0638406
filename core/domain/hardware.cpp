// Hardware presets. A100 and L40S rows are the ones the published prompts showed (paper-facts §11);
// H100, H200 and B200 rows are vendor datasheet values, replaced by driver readings for a local GPU.
#include "core/domain/hardware.h"

namespace gpuf {

QList<Hardware> hardwarePresets()
{
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
        make("NVIDIA A100-SXM4-80GB", "8.0", 108, 2048, 1.41, 1.512, 5120, 80.0, 40 * 1024 * 1024, 164 * 1024),
        make("NVIDIA L40S", "8.9", 142, 1536, 2.52, 9.0, 384, 44.5, 96 * 1024 * 1024, 100 * 1024),
        make("NVIDIA H100 80GB HBM3", "9.0", 132, 2048, 1.98, 2.619, 5120, 79.6, 50 * 1024 * 1024, 228 * 1024),
        make("NVIDIA H200", "9.0", 132, 2048, 1.98, 3.201, 6144, 140.4, 60 * 1024 * 1024, 228 * 1024),
        make("NVIDIA B200", "10.0", 148, 2048, 1.965, 4.0, 8192, 178.4, 126 * 1024 * 1024, 228 * 1024),
    };
}

std::optional<Hardware> hardwarePreset(const QString &nameOrAlias)
{
    // "A100", "a100-sxm4-80gb" and "NVIDIA A100-SXM4-80GB" all name the same preset.
    auto normalised = [](QString text) {
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
