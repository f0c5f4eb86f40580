// Submodular diverse ranking (SDR; Parambath thesis §3.3, RecSys 2016): choose k unrated items S
// maximizing the profile coverage (Eqs. 3.6-3.8)
//     cov(P, S) = sum_{(kappa, v) in P} v f( sum_{j in S} f^{-1}(W_{kappa j}) ),   f(t) = t^gamma,
// i.e. sum_kappa v (sum_{j in S} W_{kappa j}^{1/gamma})^gamma, an l_{1/gamma} norm per profile item.
//   gamma = 1       the modular sum sum_kappa v W_{kappa j} per item: MOD, item-based CF;
//   0 < gamma < 1   monotone submodular (Lemma 16): greedy is within 1 - 1/e of the optimum;
//   gamma = 0       here denotes the limit gamma -> 0: cov(kappa, S) = max_{j in S} W_{kappa j}.
// The ranking is the greedy insertion order (Algorithm 5); greedy is prefix-consistent, so the
// top-k lists for every k <= k_max are the prefixes of one run at k_max.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace mpg::diversity {

// One user's instance of Problem (3.8): m profile items (rows) x p candidate items (columns).
struct CoverageProblem {
  double gamma = 0.5;              // saturation exponent; 0 = the limit (max), 1 = modular
  Eigen::MatrixXd cover;           // m x p: f^{-1}(W_{kappa j}) = W^{1/gamma} (W itself for gamma 0 and 1)
  Eigen::VectorXd utility;         // m: v_kappa >= 0 (the ratings)
  std::vector<int> candidates;     // p item ids; equal gains go to the smaller id
  // Optional cache, m x p: f(cover) entrywise (saturated_cover below). The greedy's gain of a
  // profile item nothing selected covers yet is f(0 + c) = f(c): read here, the same double as
  // computing it, without a pow per item and candidate.
  Eigen::MatrixXd saturated;
};

// f(cover) entrywise for the problem's gamma (empty for gamma 0 and 1, where f needs no pow).
Eigen::MatrixXd saturated_cover(const Eigen::MatrixXd& cover, double gamma);

// Builds the problem from W (m x p, entries in [0, 1]); throws mpg::Error on a gamma outside
// [0, 1], mismatched sizes, negative utilities or similarities outside [0, 1].
CoverageProblem make_coverage_problem(const Eigen::MatrixXd& similarity, Eigen::VectorXd utility,
                                      std::vector<int> candidates, double gamma);

// cov(P, S) of Eq. (3.7) for the columns `selected` (indices into candidates).
double profile_coverage(const CoverageProblem& problem, const std::vector<int>& selected);

struct GreedyOptions {
  std::size_t k = 10;  // list length (capped at p)
  // Minoux's accelerated greedy (Algorithm 6): stale gains bound fresh ones from above
  // (submodularity), so only candidates whose bound reaches the best fresh gain are re-evaluated,
  // and (0 < gamma < 1, with the f(cover) cache) only those whose pow-free concavity bound
  // sum_kappa v min(f(c), f'(s_kappa) c) reaches it too. The output equals plain greedy's
  // (tests/test_sdr.cpp).
  bool lazy = true;
};

struct GreedySummary {
  std::size_t gain_evaluations = 0;   // marginal gains computed (each O(m), a pow per covered row)
  std::size_t bound_evaluations = 0;  // lazy greedy: pow-free upper bounds computed (each O(m))
  double objective = 0.0;            // cov(P, S) of the returned list
  double seconds = 0.0;
};

struct GreedyResult {
  std::vector<int> items;    // the ranking: candidates' ids in insertion order
  std::vector<int> columns;  // the same as column indices of the problem
  std::vector<double> gains; // marginal gain of each insertion
  GreedySummary summary;
};

// Greedy maximization of cov(P, S) with |S| <= k. Plain greedy computes every candidate's gain
// at each step from the cached per-profile-item sums s_kappa = sum_{j in S} cover(kappa, j)
// (gain of j: sum_kappa v ((s_kappa + cover(kappa, j))^gamma - s_kappa^gamma)), O(m p k) in all
// instead of the thesis's O(m p k^2). Ties go to the smaller candidate id.
GreedyResult sdr_greedy(const CoverageProblem& problem, const GreedyOptions& options = {});

// The all-items matrices of one gamma, shared by every user of a repetition. W is symmetric
// (every similarity of prepare_split is), so cover and f(cover) are too: a user's singleton
// gains sum_kappa v f(cover(kappa, j)) are sums of whole columns (kappa's), and its block
// (rows = profile items, columns = candidates) is read column by column.
struct CoverageMatrices {
  double gamma = 0.5;
  Eigen::MatrixXd cover;      // items x items: f^{-1}(W)
  Eigen::MatrixXd saturated;  // f(cover) (empty for gamma 0 and 1, where f(cover) = cover)
};

// Throws mpg::Error on a gamma outside [0, 1] or a W that is not square, symmetric and in [0, 1].
// `with_saturated` false leaves f(cover) empty (SDR conv reads only the cover).
CoverageMatrices make_coverage_matrices(const Eigen::MatrixXd& similarity, double gamma, bool with_saturated = true);

// The m x p block M(rows, columns) of a symmetric matrix, read as M(columns, rows): whole columns
// in order (memory-friendly, where reading M(rows, j) column by column is a cache miss per entry).
Eigen::MatrixXd gather_symmetric_block(const Eigen::MatrixXd& symmetric, const std::vector<int>& rows,
                                       const std::vector<int>& columns);

// sdr_greedy on the problem with profile items `profile` (utilities `utility`) and candidates
// `candidates` of `matrices`: the same list, gains and objective as sdr_greedy on the block built
// by hand, bit for bit (tests/test_sdr.cpp); the lazy greedy's first pass is m column sums over
// all items. Throws mpg::Error on indices outside the matrices.
GreedyResult sdr_greedy(const CoverageMatrices& matrices, const std::vector<int>& profile, const Eigen::VectorXd& utility,
                        const std::vector<int>& candidates, const GreedyOptions& options = {});

// The convex relaxation of Problem (3.8) (§3.3.5; its formula (3.9) is missing from the
// extract, reconstructed in the digest §3.3):
//     max_alpha F(alpha) = sum_kappa v (sum_j alpha_j cover(kappa, j))^gamma
//     s.t. 0 <= alpha_j <= 1, sum_j alpha_j = k,
// concave for 0 < gamma <= 1, solved by Frank-Wolfe: the linear oracle over the capped simplex
// puts 1 on the k largest gradient entries (vertex s); the duality gap
// g(alpha) = <grad F(alpha), s - alpha> >= F* - F(alpha) certifies the result. Plain
// Frank-Wolfe converges as O(1/t) here (the optimum lies on a face); we take pairwise in-face
// steps (Garber and Meshi 2016: from the away vertex of alpha's minimal face toward s, exact line
// search), each followed by a Newton step inside the face when it has at most 64 free
// coordinates (pairwise steps alone zigzag there), on a working set of candidates grown from the
// full gradient (columns outside it stay 0 until the full gap asks for them). The start is
// uniform on the working set (the gradient of t^gamma is infinite at t = 0; the working set
// covers every profile item, and the line search never lets a t_kappa reach 0).
struct FrankWolfeOptions {
  std::size_t k = 10;
  double tolerance = 1e-6;  // stop when gap <= tolerance * max(1, F(alpha))
  int max_iterations = 5000;  // steps (pairwise and face-Newton)
};

struct FrankWolfeSummary {
  bool converged = false;  // the gap met the tolerance (not merely the iteration cap)
  int iterations = 0;      // steps taken (pairwise and face-Newton)
  double objective = 0.0;  // F(alpha)
  double gap = 0.0;        // duality gap at alpha over all candidates, >= F* - F(alpha)
  std::size_t working_set = 0;  // candidates in the working set at the end
  double seconds = 0.0;
};

struct RelaxationResult {
  Eigen::VectorXd alpha;      // p
  std::vector<int> items;     // top-k ids by alpha, descending (ties: larger gradient, then smaller id)
  std::vector<int> columns;   // the same as column indices
  FrankWolfeSummary summary;
};

// gamma must be in (0, 1] (the limit gamma -> 0 has no concave relaxation of this form).
RelaxationResult sdr_relaxed(const CoverageProblem& problem, const FrankWolfeOptions& options = {});

// F(alpha) of the relaxation (equals profile_coverage at a 0/1 alpha).
double relaxed_coverage(const CoverageProblem& problem, const Eigen::VectorXd& alpha);

}  // namespace mpg::diversity
