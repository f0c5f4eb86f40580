// The one registration point of the experiment families: each file of lib/harness/families/
// defines its `*_family()`, and this list (the order of the spec reference) is the only place that
// names them. Adding a family: its file, and a line here.
#include "lib/base/error.hpp"
#include "lib/harness/family.hpp"

namespace mpg::harness {

const Family& binary_family();
const Family& sequence_labeling_family();
const Family& ranking_family();
const Family& parsing_family();
const Family& cost_sensitive_family();
const Family& comparison_family();
const Family& chess_family();
const Family& structured_auc_family();
const Family& diversity_family();
const Family& alignment_family();

const std::vector<const Family*>& families() {
  static const std::vector<const Family*> all = {
      &binary_family(),  &sequence_labeling_family(), &ranking_family(),  &parsing_family(),
      &cost_sensitive_family(), &comparison_family(), &chess_family(), &structured_auc_family(),
      &diversity_family(), &alignment_family()};
  return all;
}

const Family& family_named(const std::string& task) {
  for (const Family* family : families())
    if (family->name() == task) return *family;
  throw Error("no experiment family '" + task + "'");
}

}  // namespace mpg::harness
