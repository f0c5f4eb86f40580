// Minimal reader of multi-label data stored as CSV rows without a header, features first and the
// L binary labels last (the MULAN Yeast / Scene rows of the shared data folder, whose ARFF headers
// were stripped upstream): "f_1,...,f_d,y_1,...,y_L". `.gz` / `.xz` are read transparently.
// (Written for the structured-AUC Yeast experiment; another branch may bring a fuller MULAN
// reader, which should then replace this one.)
#pragma once

#include <Eigen/Dense>
#include <string>

namespace mpg {

struct MultilabelData {
  std::string path;
  Eigen::MatrixXd features;  // n x d
  Eigen::MatrixXi labels;    // n x L, entries 0 / 1
};

// Throws mpg::InputError "<path>:<line>: <what>" for a row whose field count differs from the
// first row's or is <= labels, a value that is not a finite number, a label that is not 0 or 1,
// or a file without rows.
MultilabelData read_multilabel_csv(const std::string& path, int labels);

}  // namespace mpg
