// Where gpuf's shared data lives (corpus, models, sample data, syntax definitions, the Python harness…): the one
// lookup every program uses, Qt-free so the GPU worker shares it.
#pragma once

#include <filesystem>
#include <string_view>

namespace gpuf {

// The folder of the running executable (from /proc/self/exe); empty when it cannot be read.
std::filesystem::path executableDirectory();

// True when the running program sits in an installed layout: <prefix>/bin with <prefix>/share/gpuf beside it.
// An installed program never looks into the source or build tree it was made from.
bool isInstalledLayout();

// The root of the shared data. In order: the GPUF_RESOURCE_DIR environment variable when set (a relocated copy),
// <exe>/../share/gpuf for an installed program, else the source tree's resources/ for a program run where it was
// built.
std::filesystem::path resourceDirectory();

// resourceDirectory()/relative when that file or folder exists; empty otherwise.
std::filesystem::path findResource(std::string_view relative);

} // namespace gpuf
