// Structured models with the AUC loss (Rosenfeld, Meshi, Tarlow and Globerson, AISTATS 2014;
// seed 002 is the supplement, digest ../shared/notes/seed-002-004.md Part A).
//
// Encoding (A.1): a ranking of n items is z in {0,1}^{n x n}, z(k, i) = 1 iff item i is among the
// top k + 1 (row k = level k + 1), with the row constraint sum_i z(k, i) = k + 1 and the nesting
// constraint z(k, i) <= z(k + 1, i). Then sum_k z(k, i) = n - p_i + 1 for the 1-based position
// p_i (1 = top).
// AUC loss (A.2, [R]): Delta(z, y) = c #{(i, j) in pos x neg : j ranked above i},
// c = 1 / (|pos| |neg|) [S]; AUC = 1 - Delta.
// Fully factored model: a_i = w . x_i, score(z) = sum_i a_i sum_k z(k, i).
// Prop. 3.1 [S, R, V]: max_z [score + Delta] - max_{z ~ y} score
//                      = sum_{i in pos, j in neg} max(0, c + a_j - a_i),
// a ranking SVM with margin c per example (checked against brute force over all n! orders).
// Compact LP (6) with row and nesting constraints over unary and pairwise marginals, solved by
// GLPK; with unary potentials only its vertices are integral (the constraint matrix (7) is TUM).
// Generalized AUCs: the supplement names them without definitions; binned AUC and AUC@k here are
// reconstructions [R] (see each function), the unnested AUC is not reconstructed.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "lib/base/option_checks.hpp"
#include "lib/learn/optimizer.hpp"

namespace mpg {

// ---- Encoding ------------------------------------------------------------------------------
// An order lists the items from the top: order[p] = item at 0-based position p.
using NestedRanking = Eigen::MatrixXi;  // n x n, rows = levels, columns = items

NestedRanking nested_from_order(const std::vector<int>& order);  // throws if not a permutation
// "" if z is a valid nested ranking, else what is violated (first violation found), e.g.
// "row 2 sums to 2, expected 3" or "nesting: z(1, 4) = 1 > z(2, 4) = 0".
std::string nested_ranking_violation(const NestedRanking& z);
std::vector<int> order_from_nested(const NestedRanking& z);  // throws mpg::Error if invalid
// position[i] = 0-based position of item i in `order`; throws if `order` is not a permutation.
std::vector<int> positions_of(const std::vector<int>& order);

// ---- AUC loss ------------------------------------------------------------------------------
// labels: 1 = positive, 0 = negative. Both classes must be present (else c is undefined): throws.
double auc_margin(const std::vector<int>& labels);  // c = 1 / (|pos| |neg|)
double auc_loss(const std::vector<int>& order, const std::vector<int>& labels);  // Delta in [0, 1]
// [R] Binned AUC: positions are cut into consecutive bins of `bin_size` (pages of results); a
// swapped pair (negative above positive) in the same bin is not counted. Same c, so binned AUC >= AUC, as the
// supplement reports.
double binned_auc(const std::vector<int>& order, const std::vector<int>& labels, int bin_size);
// [R] AUC@k: only swaps whose negative is in the top k positions count: 1 - c #{j above i, j in
// top k}. Not used by the data available here (NIPS co-authorship data is missing).
double auc_at_k(const std::vector<int>& order, const std::vector<int>& labels, int k);

// ---- Fully factored model ------------------------------------------------------------------
// score(order) = sum_i a_i (n - p_i + 1), p_i 1-based.
double factored_score(const Eigen::VectorXd& a, const std::vector<int>& order);
// argmax_z [score + Delta] (Eq. 2): sort the keys a_i - c (positives) and a_j (negatives) in
// descending order; ties put negatives first, then lower item index (the value is the same).
std::vector<int> loss_augmented_order(const Eigen::VectorXd& a, const std::vector<int>& labels);
// argmax_{z ~ y} score (Eq. 3): positives by descending a, then negatives by descending a.
std::vector<int> label_consistent_order(const Eigen::VectorXd& a, const std::vector<int>& labels);
// The structured hinge of Eq. (1) for one example, through the two inferences above.
double structured_auc_hinge(const Eigen::VectorXd& a, const std::vector<int>& labels);
// sum_{i in pos, j in neg} max(0, c + a_j - a_i): O(|pos| |neg|) reference ...
double pairwise_auc_hinge_reference(const Eigen::VectorXd& a, const std::vector<int>& labels);
// ... and O(n log n) by sorting, with the subgradient in a (pairs with c + a_j - a_i > 0 active).
double pairwise_auc_hinge(const Eigen::VectorXd& a, const std::vector<int>& labels, Eigen::VectorXd* gradient = nullptr);

// One structured example: the items of a query (or the labels of a multi-label example).
struct AucExample {
  Eigen::MatrixXd features;  // n x d
  std::vector<int> labels;   // 1 / 0
};

struct FactoredAucOptions {
  // lambda of Eq. (1), > 0. The margins c_m = 1/(|pos||neg|) are tiny (1e-4 for OHSUMED queries),
  // so the useful lambda are large: on OHSUMED fold 1, lambda in 1e4..1e8 (test AUC 0.63-0.64);
  // lambda <= 100 needs hundreds of cutting-plane iterations for the same certificate.
  double lambda = 1e5;
  // The supplement names no optimizer; the default is lib/learn's certified cutting-plane method
  // (BMRM) with regularization = lambda, set by the trainer.
  OptimizerOptions optimizer = [] {
    OptimizerOptions o;
    o.kind = OptimizerKind::cutting_plane;
    o.max_iterations = 1000;
    o.cutting_plane_tolerance = 1e-4;
    return o;
  }();

  // Throws mpg::Error naming the first field out of its range (lib/base/option_checks.hpp).
  void validate() const {
    option_checks::positive("factored AUC", "lambda", lambda);
  }
};

struct FactoredAucSummary {
  bool converged = false;
  int iterations = 0;             // optimizer iterations
  double primal = 0.0;            // objective (1) at the returned w
  double lower_bound = 0.0;       // certified lower bound on the minimum (cutting plane; else -inf)
  std::size_t pairs = 0;          // (pos, neg) pairs over the examples used
  std::size_t examples_used = 0;  // examples with both classes (the others have no AUC)
  std::size_t examples_skipped = 0;
  double seconds = 0.0;
  std::string message;
};

// min_w lambda/2 ||w||^2 + (1/M) sum_m sum_{i in pos_m, j in neg_m} max(0, c_m - w . (x_i - x_j)),
// the objective (1) of the fully factored model by Prop. 3.1. Throws mpg::Error if no example
// has both classes or the feature counts differ.
Eigen::VectorXd train_factored_auc(const std::vector<AucExample>& examples, const FactoredAucOptions& options,
                                   FactoredAucSummary* summary = nullptr);

// Mean over examples with both classes of the AUC of the scores w . x, a tied (pos, neg) pair
// counting 1/2 (the mean over tie-breaks, independent of the item order).
double mean_example_auc(const std::vector<AucExample>& examples, const Eigen::VectorXd& weights);
// The same AUC of each example with both classes, in order (the units of its mean).
std::vector<double> example_aucs(const std::vector<AucExample>& examples, const Eigen::VectorXd& weights);

// ---- Compact LP relaxation (6) ---------------------------------------------------------------
// Potentials replicated at every level k: unary theta_i(z) and pairwise theta_f(z_i, z_j).
struct RankingFactor {
  int i = 0, j = 0;
  double theta[4] = {0, 0, 0, 0};  // theta(z_i, z_j) at index 2 z_i + z_j
};
struct RankingPotentials {
  Eigen::VectorXd unary_off, unary_on;  // theta_i(0), theta_i(1)
  std::vector<RankingFactor> factors;
  int items() const { return static_cast<int>(unary_on.size()); }
};
// sum_{k,i} theta_i(z(k, i)) + sum_{k,f} theta_f(z(k, i_f), z(k, j_f)) for a valid z.
double ranking_score(const RankingPotentials& potentials, const NestedRanking& z);

struct RankingLpResult {
  double value = 0.0;          // LP optimum (>= the best integral score)
  Eigen::MatrixXd marginals;   // mu(k, i) = mu_ki(1), n x n
  bool integral = false;       // every mu within 1e-9 of {0, 1}
  std::vector<int> order;      // the ranking when integral
  int rows = 0, columns = 0;   // LP size
  double seconds = 0.0;
};
// max over L(G) (mu >= 0, mu_ki(0) + mu_ki(1) = 1, factor marginals summing to the unary ones,
// parametrized by mu_f(1, 1)) with sum_i mu_ki(1) = k and mu_{k+1,i}(1) >= mu_ki(1).
// Throws mpg::SolverError if GLPK fails.
RankingLpResult solve_ranking_lp(const RankingPotentials& potentials);

// The constraint matrix of (7) as in the supplement's proof: columns in n blocks (one per item,
// levels 1..n), rows [I ... I; -I ... -I; blockdiag(G, ..., G)], G_(k) = e_k - e_{k+1}.
Eigen::MatrixXi nested_constraint_matrix(int n);
// Brute force over all square submatrices (exact integer determinants, Bareiss): true iff every
// one is in {-1, 0, 1}. For small matrices only (tests).
bool is_totally_unimodular(const Eigen::MatrixXi& a);

}  // namespace mpg
