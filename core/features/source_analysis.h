// The passes of source feature extraction, shared between the files that implement them (not a public API: use
// kernel_features.h).
#pragma once

#include "core/features/cleaned_source.h"
#include "core/features/expression.h"
#include "core/features/kernel_features.h"

#include <QRegularExpression>

#include <vector>

namespace gpuf::features::detail {

// A multi-line regular expression from a pattern literal.
QRegularExpression re(const char *pattern);

// Counts every match of `re` in the cleaned text as one occurrence of `feature` on the match's line.
void countMatches(
    const CleanedSource &source, const QRegularExpression &re, KernelFeature feature, KernelFeatures &out);

// Index one past the bracket that closes the one at `open` ('(' '[' '{'); -1 when it never closes.
qsizetype matchingClose(const QString &text, qsizetype open);

// Markers that mean the same in CUDA and in Python (where they match CUDA code inside load_inline strings, or
// Triton/torch calls): synchronisation, atomics, shuffles, tensor cores, precision, math, library calls.
void countCommonMarkers(const CleanedSource &source, KernelFeatures &out);

// #define NAME value and constexpr/const integer constants, evaluated in order (later ones may use earlier ones).
Variables collectConstants(const CleanedSource &source);

// A __shared__ or per-thread array declaration.
struct ArrayDeclaration
{
    QString name;
    QString type;
    bool shared = false;
    bool dynamic = false; // extern __shared__ x[]
    bool padded = false; // last dimension odd (33) or written as "… + 1"
    int dimensions = 0;
    double elements = -1.0; // -1: a dimension could not be evaluated
    int elementBytes = 4;
    qsizetype start = 0; // offsets of the declaration in the cleaned text
    qsizetype end = 0;
    int line = 0;
};
std::vector<ArrayDeclaration> findArrays(const CleanedSource &source, const Variables &constants);

// Byte size of a scalar or vector CUDA type name (float4 → 16); 0 when unknown.
int typeBytes(QStringView type);

// CUDA structure: loops (depth, barriers inside them, grid/block-stride), branches, shared memory, register arrays,
// element sizes and vector widths, launch bounds.
void analyseCLike(const CleanedSource &source, KernelFeatures &out);

// Lane-index analysis of global and shared accesses (coalesced, strided, shared column accesses, divergent branches).
void analyseAccessPatterns(const CleanedSource &source, const Variables &constants,
    const std::vector<ArrayDeclaration> &arrays, KernelFeatures &out);

// Python: loops and branches by indentation, Triton kernels, blocks, warps, stages, loads, launches, torch ops.
void analysePython(const CleanedSource &source, KernelFeatures &out);

} // namespace gpuf::features::detail
