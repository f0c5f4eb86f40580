// Reader for the UCI optdigits files (optdigits.tra, optdigits.tes): one example per line, 64
// comma-separated integer features in 0..16 (pixel counts of 4x4 blocks) and then the class 0..9.
#pragma once

#include <string>

#include "lib/data/libsvm.hpp"

namespace mpg {

// Reads an optdigits file (a .gz name is inflated) into the LIBSVM reader's result: features
// n x max(64, min_features) with zeros not stored, the class as the raw label, the source line
// of each example, and the bias column of `options` if any. Blank lines are skipped. Throws
// mpg::InputError("<path>:<line>: <what>") on: missing or unreadable file, a line without exactly
// 65 fields, a field that is not an integer, a feature outside 0..16, a class outside 0..9, or an
// empty file (no examples).
LibsvmData read_optdigits(const std::string& path, const LibsvmReadOptions& options = {});
// The same from text already in memory (`path` only names it in messages).
LibsvmData parse_optdigits(std::string_view text, const std::string& path, const LibsvmReadOptions& options = {});

}  // namespace mpg
