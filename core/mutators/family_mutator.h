// The family mutator: proposals from a kernel family (docs/search.md). A search over a family starts from the
// family's default configuration; each mutation moves one or two tunables of its parent to neighbouring values,
// chosen with the request's seed, so the same request always gets the same answer (resume and replay rely on it).
#pragma once

#include "core/mutators/kernel_family.h"
#include "core/mutators/mutator.h"

namespace gpuf::families {

class FamilyMutator : public search::Mutator
{
public:
    explicit FamilyMutator(KernelFamily family);

    QString kind() const override;
    QJsonObject configuration() const override; // {"family", "family_hash"}
    Status prepare(const search::MutatorSetup &setup) override;
    std::optional<search::Proposal> seed() const override; // the default configuration
    void request(const QList<search::MutationRequest> &requests, Done done) override;
    void cancel() override;

    // The answer to one request, without side effects (request() calls it for each).
    search::MutationResult answer(const search::MutationRequest &request) const;

    const KernelFamily &family() const { return m_family; }

private:
    search::Proposal proposal(const Expansion &expansion, const QString &notes) const;

    KernelFamily m_family;
    QList<Configuration> m_valid; // filled by prepare()
};

} // namespace gpuf::families
