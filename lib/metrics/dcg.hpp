// The DCG game of one query (thesis §4.2.4) and its exact solvers (compact LP, polymatroid
// greedy). DCG itself, its discounts and the LETOR evaluation measures are
// lib/eval/ranking_measures.hpp.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "lib/eval/ranking_measures.hpp"
#include "lib/game/game.hpp"

namespace mpg {

// The DCG game of one query (thesis §4.2.4). The predictor plays permutations; the adversary
// plays relevance vectors y in {0..L-1}^n. Payoff DCG(order, y) - psi(y) with
//     psi(y) = sum_j psi_j(y_j),   psi_j(s) = potentials(j, s)   (one weight vector per level s).
// Best responses (DCG is linear in the gains: DCG = sum_j gain(y_j) disc(rank of j)):
//   predictor  sort documents by g_j = E_Q[2^Y_j - 1], descending                    (Eq. 4.28)
//   adversary  c_j = E_P[disc(rank of j)]; independently y_j = argmin_s (2^s - 1) c_j - psi_j(s)
//              (Eq. 4.29; ties to the smallest s).
// Ties between documents are never broken by their index (file order) where a decision depends
// on them: the exact solvers and the decision rule below order tied documents by priority_rank().
class DcgGame final : public Game<std::vector<int>> {
 public:
  using Action = std::vector<int>;
  // potentials: n x L (L >= 2 levels). keys: a content key per document (document_keys of its
  // features), or empty (all keys equal).
  DcgGame(Eigen::MatrixXd potentials, DcgDiscount discount, std::vector<DocumentKey> keys = {});

  std::string metric_name() const override { return "dcg"; }
  double score(const Action& order, const Action& relevance) const override;
  double potential(const Action& relevance) const override;
  std::vector<Action> initial_predictor_actions() const override;
  std::vector<Action> initial_adversary_actions() const override;
  bool is_legal_predictor_action(const Action& action) const override;
  bool is_legal_adversary_action(const Action& action) const override;
  BestResponse<Action> predictor_best_response(const MixedStrategy<Action>& adversary) const override;
  BestResponse<Action> adversary_best_response(const MixedStrategy<Action>& predictor) const override;

  std::size_t documents() const { return static_cast<std::size_t>(potentials_.rows()); }
  int levels() const { return static_cast<int>(potentials_.cols()); }
  const Eigen::MatrixXd& potentials() const { return potentials_; }
  const std::vector<double>& discounts() const { return discounts_; }
  // The documents' tie-break priority: by the top level's potential psi_j(L-1) descending, then
  // by key ascending, then by index (reached only by documents with equal potentials and equal
  // keys, i.e. identical documents, whose order changes no measure). priority_rank()[j] = place
  // of document j (0 = first).
  const std::vector<int>& priority_rank() const { return priority_rank_; }
  // The predictor's best-response value against independent per-document level marginals
  // (n x L): only the expected gains matter, so this equals the value against any joint
  // adversary strategy with those marginals.
  double predictor_value_against_marginals(const Eigen::MatrixXd& marginals) const;

 private:
  Eigen::MatrixXd potentials_;
  DcgDiscount discount_;
  std::vector<double> discounts_;  // disc(1..n)
  std::vector<int> priority_rank_;
};

}  // namespace mpg

namespace mpg {

// The exact equilibrium of a DCG game through its compact LP. The adversary's payoff is
// separable per document and the predictor's expected discounts c = E_P[disc(rank of j)]
// range over the permutahedron {M disc : M doubly stochastic} (Birkhoff-von Neumann), so
//     v = max_{M, t} sum_j t_j   s.t.  t_j <= (2^s - 1)(M disc)_j - psi_j(s)   for all j, s,
//                                      M 1 = 1, 1^T M = 1, M >= 0,
// where M(j, r) = P(document j at position r). The duals of the t-rows are the adversary's
// equilibrium marginals Q(Y_j = s); the predictor's mixed strategy is a Birkhoff decomposition
// of M, each step taking the perfect matching with the largest smallest entry (so the first
// permutation is the decomposition's most probable one). Double oracle converges slowly on
// these games (thousands of near-identical adversary labelings on 100-document queries); this
// LP replaced it and is now the reference for the faster greedy solver below (tests check both
// against double oracle and brute force).
struct DcgEquilibrium {
  double value = 0.0;
  MixedStrategy<std::vector<int>> predictor;  // permutations, most probable first
  Eigen::MatrixXd adversary_marginals;        // n x L, rows sum to 1
  Eigen::VectorXd expected_discounts;         // c_j = E_P[disc(rank of j)] (greedy solver)
  double gap = 0.0;     // best-response gap of (predictor, marginals): certifies the solve
  double seconds = 0.0;
};
DcgEquilibrium solve_dcg_game(const DcgGame& game);

// The same equilibrium without an LP (lib/metrics/dcg_greedy.cpp): the predictor's expected
// discounts c maximize sum_j min_s [(2^s - 1) c_j - psi_j(s)] over the permutahedron of the
// discounts, found by the polymatroid greedy algorithm in O(L n^2); the adversary's marginals
// are the matching LP dual. The predictor's mixed strategy (a decomposition of c into at most
// ~n permutations, most probable first) is computed only if asked for: learning needs the value
// and the marginals alone.
//
// The greedy raises the pieces of equal slope in the game's priority order (DcgGame::priority_rank),
// which makes its point the canonical equilibrium strategy of the decision rule below.
DcgEquilibrium solve_dcg_game_greedy(const DcgGame& game, bool predictor_strategy = true);

// Writes a point c of the permutahedron of `discounts` (sorted descending) as a mixture of
// permutations (order[i] = document at position i + 1), most probable first: each step peels
// off the vertex of c's own order as far as the permutahedron allows. Documents with equal c
// are ordered by priority_rank (lower first; empty: by index).
MixedStrategy<std::vector<int>> decompose_permutahedron_point(const Eigen::VectorXd& expected_discounts,
                                                              const std::vector<double>& discounts,
                                                              const std::vector<int>& priority_rank = {});

// The decision rule of a DCG game: one ranking that every exact solver yields, whichever
// equilibrium it lands on (the predictor's equilibrium strategy is not unique: the optimum is highly
// degenerate). Write phi_j(c) = min_s (2^s - 1) c - psi_j(s) as its pieces (slope 2^s - 1, in
// decreasing slope along c) and a predictor strategy by its expected discounts c, split into the
// amounts x_{j,s} that fill document j's pieces in order. The rule's strategy is
//     c* = the optimal c whose piece amounts, listed by slope descending and then by the
//          documents' priority (DcgGame::priority_rank), are lexicographically largest,
// unique because the optimal set is convex and compact. It is what the polymatroid greedy computes
// (the feasible piece amounts form a polymatroid, and the greedy in a fixed order returns the
// lexicographically largest point of a polymatroid in that order, which maximizes every linear
// objective non-increasing along the order). The ranking is the thesis' rule applied to c*: the
// most probable permutation of its peeling decomposition (ties in c by priority). The second
// summary, `expected_gain_order`, ranks the documents by E[2^Y_j - 1] under the adversary marginals
// the greedy pairs with c* (ties by priority). tests/test_dcg_decision.cpp checks c* against a
// sequence of LPs over the optimal set, and the decision against the LP and double-oracle solvers.
struct DcgDecision {
  Ranking order;                // the most probable permutation of c*'s decomposition
  Ranking expected_gain_order;  // documents by E_Q[2^Y_j - 1], ties by priority
  DcgEquilibrium equilibrium;   // the greedy's: c* (expected_discounts), its marginals and decomposition
};
DcgDecision dcg_decision(const DcgGame& game);

}  // namespace mpg
