// SHA-256 message digests (FIPS 180-4), used to verify data files against their published hashes.
#pragma once

#include <string>
#include <string_view>

namespace mpg {

// The SHA-256 digest of `bytes` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

// The SHA-256 digest of the file's raw bytes (a .gz file is hashed compressed), read in chunks.
// Throws mpg::InputError naming the file if it cannot be opened or read.
std::string sha256_file_hex(const std::string& path);

}  // namespace mpg
