// Keeping a GLPK basis usable after rows or columns were deleted (shared by the LP solvers that
// shrink their restricted problems in place).
#pragma once

#include <glpk.h>

namespace mpg {

// A valid basis has exactly as many basic variables as rows. After deletions there may be too few
// (the slackest non-basic <= rows become basic) or too many (the basic columns with lower bounds
// nearest zero become non-basic). A basis that is then singular is left to the caller's fallback.
void repair_basis_count(glp_prob* lp);

}  // namespace mpg
