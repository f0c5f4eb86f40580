// Reader for the raw UCI Adult files (adult.data, adult.test): one census record per line,
// 15 comma-separated fields (age, workclass, fnlwgt, education, education-num, marital-status,
// occupation, relationship, race, sex, capital-gain, capital-loss, hours-per-week,
// native-country, income). Each record is encoded as the 123 binary features of LIBSVM's
// a1a..a9a files (Platt 1998), which Parambath's thesis used at full size (a9a: 32,561 / 16,281):
//   features  1-5   age             <=25 | 26-32 | 33-40 | 41-49 | >=50
//             6-13  workclass       in the order of adult.names (Private ... Never-worked)
//            14-18  fnlwgt          <=106627 | <=158656 | <=196332 | <=259865 | above
//            19-34  education       adult.names order (Bachelors ... Preschool)
//            35-39  education-num   <=8 | 9 | 10 | 11-12 | >=13
//            40-46  marital-status, 47-60 occupation, 61-66 relationship, 67-71 race,
//            72-73  sex             (all in adult.names order)
//            74-75  capital-gain    0 | >0
//            76-77  capital-loss    0 | >0
//            78-82  hours-per-week  <=34 | 35-39 | 40 | 41-47 | >=48
//            83-123 native-country  adult.names order (United-States ... Holand-Netherlands)
// A missing value "?" sets no feature of its attribute. The bins were read off the LIBSVM files:
// encoding all 32,561 rows of adult.data reproduces the multiset of rows of a1a, a3a and a4a
// (each file's train and test parts together), labels included (tests/test_adult.cpp). The
// fnlwgt cut points are the largest training value of each bin; 3 rows of adult.test fall
// between a bin's largest and the next bin's smallest training value and go to the upper bin.
// Labels: +1 for ">50K" and -1 for "<=50K" (adult.test's trailing '.' accepted).
#pragma once

#include <string>

#include "lib/data/libsvm.hpp"

namespace mpg {

// Number of binary features of the encoding.
inline constexpr long kAdultFeatures = 123;

// Reads and encodes an Adult file (a .gz name is inflated) into the LIBSVM reader's result:
// features n x max(123, min_features) (+ the bias column of `options`), raw labels +1/-1, and
// the source line of each example. Blank lines and lines starting with '|' (adult.test's first
// line) are skipped. Throws mpg::InputError("<path>:<line>: <what>") on: missing or unreadable
// file, a line without 15 fields, a numeric field that is not an integer, an unknown category or
// income, or an empty file.
LibsvmData read_adult(const std::string& path, const LibsvmReadOptions& options = {});

}  // namespace mpg
