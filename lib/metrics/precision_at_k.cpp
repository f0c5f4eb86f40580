#include "lib/metrics/precision_at_k.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

// Indices of the k smallest values, ties broken by the smaller index; returned sorted.
BinaryAction k_smallest(const Eigen::VectorXd& values, std::size_t k) {
  std::vector<std::uint32_t> order(static_cast<std::size_t>(values.size()));
  std::iota(order.begin(), order.end(), 0u);
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k - 1), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) {
                     return values[a] < values[b] || (values[a] == values[b] && a < b);
                   });
  BinaryAction chosen(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k));
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace

PrecisionAtKEquilibrium solve_precision_at_k_game(const std::vector<double>& psi, std::size_t k) {
  const std::size_t n = psi.size();
  if (k < 1 || k > n)
    throw Error("precision@k needs 1 <= k <= n, got k = " + std::to_string(k) + " with n = " +
                std::to_string(n));
  const double kk = static_cast<double>(k);
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return psi[a] > psi[b] || (psi[a] == psi[b] && a < b);
  });
  double capacity = 0.0;  // C
  for (double p : psi) capacity += std::min(1.0, kk * std::max(0.0, p));

  PrecisionAtKEquilibrium eq;
  eq.predictor_marginals = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n));
  // Useful capacity first, in decreasing psi; then (C < k) top up in the same order.
  double remaining = kk;
  for (auto i : order) {
    const double useful = std::min({1.0, kk * std::max(0.0, psi[i]), remaining});
    eq.predictor_marginals[i] = useful;
    remaining -= useful;
  }
  for (auto i : order) {
    if (remaining <= 0.0) break;
    const double top_up = std::min(1.0 - eq.predictor_marginals[i], remaining);
    eq.predictor_marginals[i] += top_up;
    remaining -= top_up;
  }
  const bool saturated = capacity > kk;
  for (std::uint32_t i = 0; i < n; ++i)
    if (saturated ? psi[i] > 0.0 : kk * psi[i] >= 1.0) eq.adversary_action.push_back(i);
  eq.top_k.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k));

  // The certificate, from the definitions of both best responses.
  double action_potential = 0.0;
  for (auto i : eq.adversary_action) action_potential += psi[i];
  eq.predictor_response_value =
      static_cast<double>(std::min(eq.adversary_action.size(), k)) / kk - action_potential;
  for (std::size_t i = 0; i < n; ++i)
    eq.adversary_response_value += std::min(0.0, eq.predictor_marginals[static_cast<Eigen::Index>(i)] / kk - psi[i]);
  eq.gap = eq.predictor_response_value - eq.adversary_response_value;
  eq.value = eq.adversary_response_value;
  return eq;
}

AdversaryRestriction parse_adversary_restriction(const std::string& name) {
  if (name == "unrestricted") return AdversaryRestriction::unrestricted;
  if (name == "exactly_k") return AdversaryRestriction::exactly_k;
  throw Error("unknown adversary restriction '" + name + "' (expected unrestricted or exactly_k)");
}

std::string to_string(AdversaryRestriction restriction) {
  return restriction == AdversaryRestriction::exactly_k ? "exactly_k" : "unrestricted";
}

double precision_at_k(const BinaryAction& prediction, const BinaryAction& label, std::size_t k) {
  return static_cast<double>(intersection_size(prediction, label)) / static_cast<double>(k);
}

PrecisionAtKGame::PrecisionAtKGame(std::vector<double> potentials, std::size_t k,
                                   AdversaryRestriction restriction)
    : BinaryGame(std::move(potentials)), k_(k), restriction_(restriction) {
  if (k_ < 1 || k_ > size())
    throw Error("precision@k needs 1 <= k <= n, got k = " + std::to_string(k_) +
                " with n = " + std::to_string(size()));
}

std::vector<BinaryAction> PrecisionAtKGame::initial_predictor_actions() const {
  if (k_ == size()) return {all_ones(size())};
  return {first_k(k_), last_k(size(), k_)};
}

std::vector<BinaryAction> PrecisionAtKGame::initial_adversary_actions() const {
  if (restriction_ == AdversaryRestriction::exactly_k) return initial_predictor_actions();
  return {all_zeros(), all_ones(size())};
}

bool PrecisionAtKGame::is_legal_predictor_action(const BinaryAction& a) const {
  return a.size() == k_ && is_action(a);
}

bool PrecisionAtKGame::is_legal_adversary_action(const BinaryAction& a) const {
  if (restriction_ == AdversaryRestriction::exactly_k && a.size() != k_) return false;
  return is_action(a);
}

BestResponse<BinaryAction> PrecisionAtKGame::predictor_best_response(
    const MixedStrategy<BinaryAction>& adversary) const {
  // E_Q[P@k(y_hat, Y)] = sum_{i in y_hat} P(Y_i = 1) / k: take the k largest marginals.
  const Eigen::VectorXd marginals = binary_marginals(adversary, size());
  BestResponse<BinaryAction> response;
  response.action = k_smallest(-marginals, k_);
  double expected_hits = 0.0;
  for (auto i : response.action) expected_hits += marginals[i];
  response.value = expected_hits / static_cast<double>(k_) - expected_potential(adversary);
  return response;
}

// E_P[P@k(Y_hat, y)] - psi(y) = sum_{i in y} c_i with c_i = P(Y_hat_i = 1) / k - psi_i.
Eigen::VectorXd PrecisionAtKGame::adversary_costs(const MixedStrategy<BinaryAction>& predictor) const {
  Eigen::VectorXd cost = binary_marginals(predictor, size()) / static_cast<double>(k_);
  for (std::size_t i = 0; i < size(); ++i) cost[static_cast<Eigen::Index>(i)] -= potentials()[i];
  return cost;
}

std::vector<BestResponse<BinaryAction>> PrecisionAtKGame::adversary_responses(
    const MixedStrategy<BinaryAction>& predictor, const MixedStrategy<BinaryAction>& own) const {
  const Eigen::VectorXd cost = adversary_costs(predictor);
  std::vector<BestResponse<BinaryAction>> responses{adversary_best_response(cost)};
  if (restriction_ == AdversaryRestriction::exactly_k) return responses;
  for (std::size_t m : distinct_sizes(own)) {
    BestResponse<BinaryAction> response;
    response.action = k_smallest(cost, m);
    for (auto i : response.action) response.value += cost[i];
    responses.push_back(std::move(response));
  }
  return responses;
}

BestResponse<BinaryAction> PrecisionAtKGame::adversary_best_response(
    const MixedStrategy<BinaryAction>& predictor) const {
  return adversary_best_response(adversary_costs(predictor));
}

BestResponse<BinaryAction> PrecisionAtKGame::adversary_best_response(const Eigen::VectorXd& cost) const {
  BestResponse<BinaryAction> response;
  if (restriction_ == AdversaryRestriction::exactly_k) {
    response.action = k_smallest(cost, k_);
  } else {
    for (std::size_t i = 0; i < size(); ++i)
      if (cost[static_cast<Eigen::Index>(i)] < 0.0)
        response.action.push_back(static_cast<std::uint32_t>(i));
  }
  for (auto i : response.action) response.value += cost[i];
  return response;
}

std::optional<ExactEquilibrium> PrecisionAtKGame::exact_equilibrium(double tolerance) const {
  if (restriction_ != AdversaryRestriction::unrestricted) return std::nullopt;
  const auto start = std::chrono::steady_clock::now();
  const PrecisionAtKEquilibrium eq = solve_precision_at_k_game(potentials(), k_);
  ExactEquilibrium exact;
  exact.marginals = eq.predictor_marginals;
  // Every equilibrium marginal pi* can be taken non-increasing in psi (the greedy fill of
  // solve_precision_at_k_game), so the likeliest action is the top k by psi. Its probability is
  // the largest any decomposition of pi* into k-subsets can give it:
  // min(min_{i in S} pi_i, 1 - max_{i not in S} pi_i).
  exact.likeliest_action = eq.top_k;
  std::sort(exact.likeliest_action.begin(), exact.likeliest_action.end());
  double inside = 1.0, outside = 0.0;
  std::vector<char> chosen(size(), 0);
  for (auto i : exact.likeliest_action) chosen[i] = 1;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const double pi = eq.predictor_marginals[static_cast<Eigen::Index>(i)];
    if (chosen[i]) inside = std::min(inside, pi);
    else outside = std::max(outside, pi);
  }
  exact.likeliest_probability = std::min(inside, 1.0 - outside);
  // E[P@k(Y_hat, y)] = sum_{i in y} pi_i / k.
  exact.expected_score = [marginals = eq.predictor_marginals, k = k_](const std::vector<int>& labels) {
    double expected = 0.0;
    for (std::size_t i = 0; i < labels.size(); ++i)
      if (labels[i] == 1) expected += marginals[static_cast<Eigen::Index>(i)] / static_cast<double>(k);
    return expected;
  };
  exact.adversary.actions.push_back(eq.adversary_action);
  exact.adversary.probabilities.push_back(1.0);
  ExactSolveSummary& summary = exact.summary;
  summary.method = "closed form";
  summary.status = std::abs(eq.gap) <= tolerance ? ExactSolveStatus::converged : ExactSolveStatus::not_certified;
  summary.value = eq.value;
  summary.predictor_response_value = eq.predictor_response_value;
  summary.adversary_response_value = eq.adversary_response_value;
  summary.gap = eq.gap;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return exact;
}

}  // namespace mpg
