#include "lib/game/glpk_basis.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace mpg {

void repair_basis_count(glp_prob* lp) {
  const int m = glp_get_num_rows(lp), columns = glp_get_num_cols(lp);
  int basic = 0;
  for (int r = 1; r <= m; ++r) basic += glp_get_row_stat(lp, r) == GLP_BS;
  for (int c = 1; c <= columns; ++c) basic += glp_get_col_stat(lp, c) == GLP_BS;
  std::vector<std::pair<double, int>> candidates;
  if (basic < m) {
    for (int r = 1; r <= m; ++r) {
      if (glp_get_row_stat(lp, r) == GLP_BS || glp_get_row_type(lp, r) != GLP_UP) continue;
      candidates.push_back({glp_get_row_prim(lp, r) - glp_get_row_ub(lp, r), r});  // -slack
    }
    std::sort(candidates.begin(), candidates.end());
    for (std::size_t j = 0; j < candidates.size() && basic < m; ++j, ++basic) glp_set_row_stat(lp, candidates[j].second, GLP_BS);
  } else if (basic > m) {
    for (int c = 1; c <= columns; ++c)
      if (glp_get_col_stat(lp, c) == GLP_BS && glp_get_col_type(lp, c) == GLP_LO)
        candidates.push_back({std::fabs(glp_get_col_prim(lp, c)), c});
    std::sort(candidates.begin(), candidates.end());
    for (std::size_t j = 0; j < candidates.size() && basic > m; ++j, --basic) glp_set_col_stat(lp, candidates[j].second, GLP_NL);
  }
}

}  // namespace mpg
