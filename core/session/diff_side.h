// DiffSide: one side of a diff as a value (title, language, text, note), what a pair loader hands the diff view.
#pragma once

#include <QString>

namespace gpuf {

// One side of the diff as a value: the caller loads kernels from the store and hands their text over.
struct DiffSide
{
    QString title; // shown above the pane and used as the patch label ("reference", "v4_reg_block_2d.cu", …)
    QString language; // a kernel language ("cuda", "triton", "python", "ptx"); picks the highlighting
    QString source;
    QString notes; // the kernel's teaching note (Kernel::notes), shown above the panes; empty when none

    friend bool operator==(const DiffSide &, const DiffSide &) = default;
};

} // namespace gpuf
