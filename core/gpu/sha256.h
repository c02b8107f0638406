// SHA-256 of a byte string (FIPS 180-4), for the compiled binary's hash the worker reports beside every measurement
// (compile.binary_sha256): the worker is Qt-free, so it cannot use QCryptographicHash.
#pragma once

#include <string>
#include <string_view>

namespace gpuf::gpu {

// The digest as 64 lower-case hex digits.
std::string sha256Hex(std::string_view data);

} // namespace gpuf::gpu
