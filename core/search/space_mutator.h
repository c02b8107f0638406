// Proposals from a recorded tuning space: a space imported from another auto-tuner (Kernel Tuner cache, T4), whose
// kernels exist only as the store's recorded configurations. A mutation moves one or two tunables of its parent one
// step along their values, to a configuration the space holds, chosen with the request's seed (the same request always
// gets the same answer); the proposal is the stored kernel of that configuration. The search starts from the
// problem's reference, itself one of the space's configurations.
#pragma once

#include "core/mutators/mutator.h"
#include "core/search/tuning_space.h"

#include <QHash>

namespace gpuf::search {

struct ReplayWorld;

class SpaceMutator : public Mutator
{
public:
    SpaceMutator(TuningSpace space, QList<Kernel> kernels);
    // The space of `family` among the world's recorded kernels; an error when the world has none of it.
    static Result<std::unique_ptr<SpaceMutator>> fromWorld(const ReplayWorld &world, const QString &family);

    QString kind() const override { return QStringLiteral("family"); }
    QJsonObject configuration() const override;
    Status prepare(const MutatorSetup &setup) override;
    void request(const QList<MutationRequest> &requests, Done done) override;
    void cancel() override { }

    MutationResult answer(const MutationRequest &request) const;

private:
    TuningSpace m_space;
    QList<Kernel> m_kernels; // by point
};

} // namespace gpuf::search
