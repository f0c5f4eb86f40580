// Linear-chain F1 game: GFM predictor, LCFM/MSUM adversary (lib/metrics/linear_chain_f1.hpp).
#include "lib/metrics/linear_chain_f1.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>

#include "lib/base/error.hpp"
#include "lib/game/matrix_game.hpp"

namespace mpg {

namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

// The opponent strategy's size-split marginals, F(t, k) = sum_j q_j [y_j(t) = C] 2 / (|y_j|_C + k)
// for k = 1..T (column k; column 0 unused), and p0 = P(|Y|_C = 0). T x (T + 1).
Eigen::MatrixXd gfm_matrix(const MixedStrategy<LabelSequence>& strategy, std::size_t length, int target,
                           double& p0) {
  const auto T = static_cast<Eigen::Index>(length);
  Eigen::MatrixXd f = Eigen::MatrixXd::Zero(T, T + 1);
  p0 = 0.0;
  std::vector<Eigen::Index> positions;
  for (std::size_t j = 0; j < strategy.size(); ++j) {
    const double q = strategy.probabilities[j];
    positions.clear();
    for (Eigen::Index t = 0; t < T; ++t)
      if (strategy.actions[j][static_cast<std::size_t>(t)] == target) positions.push_back(t);
    if (positions.empty()) {
      p0 += q;
      continue;
    }
    const auto s = static_cast<double>(positions.size());
    for (Eigen::Index k = 1; k <= T; ++k) {
      const double w = 2.0 * q / (s + static_cast<double>(k));
      for (Eigen::Index t : positions) f(t, k) += w;
    }
  }
  return f;
}

// MSUM as a forward DP over states (r, c) = (C labels used so far, label at t):
//   value_t(r, c) = max_a value_{t-1}(r - I(c = C), a) + B(a, c) + U(t, c) - I(c = C) f(t, k),
// with value_0(r, c) = B(START, c) + U(0, c) - I(c = C) f(0, k). `cost_column` k selects the
// f column (-1: no cost, psi only; f is not read); with `exact`, states that cannot reach r = R
// at the end are skipped. Returns value_{T-1} (in `value`; `next` is scratch); with `back`,
// records the argmax a per (t, r, c).
std::vector<double> msum_dp(const ChainScores& potentials, int C, const Eigen::MatrixXd& f, std::size_t R,
                            Eigen::Index cost_column, bool exact, std::vector<std::int8_t>* back,
                            std::vector<double>& value, std::vector<double>& next) {
  const auto T = static_cast<Eigen::Index>(potentials.length());
  const int m = potentials.labels();
  const auto M = static_cast<std::size_t>(m);
  const auto& U = potentials.unary;
  const auto& B = potentials.transition;
  const std::size_t states = (R + 1) * M;
  value.assign(states, kMinusInfinity);
  if (back) back->assign(static_cast<std::size_t>(T) * states, -1);
  auto gain = [&](Eigen::Index t, int c) {
    return U(t, c) - (c == C && cost_column >= 0 ? f(t, cost_column) : 0.0);
  };
  for (int c = 0; c < m; ++c) {
    const std::size_t r = c == C ? 1 : 0;
    if (r <= R) value[r * M + static_cast<std::size_t>(c)] = B(m, c) + gain(0, c);
  }
  for (Eigen::Index t = 1; t < T; ++t) {
    next.assign(states, kMinusInfinity);
    const auto remaining = static_cast<std::size_t>(T - 1 - t);  // positions after t
    for (std::size_t r = 0; r <= R && r <= static_cast<std::size_t>(t) + 1; ++r) {
      if (exact && r + remaining < R) continue;
      for (int c = 0; c < m; ++c) {
        if (c == C && r == 0) continue;
        const std::size_t from = (c == C ? r - 1 : r) * M;
        double best = kMinusInfinity;
        int arg = -1;
        for (int a = 0; a < m; ++a) {
          const double v = value[from + static_cast<std::size_t>(a)];
          if (v == kMinusInfinity) continue;
          const double candidate = v + B(a, c);
          if (candidate > best) {
            best = candidate;
            arg = a;
          }
        }
        if (arg < 0) continue;
        const std::size_t state = r * M + static_cast<std::size_t>(c);
        next[state] = best + gain(t, c);
        if (back) (*back)[static_cast<std::size_t>(t) * states + state] = static_cast<std::int8_t>(arg);
      }
    }
    value.swap(next);
  }
  return value;
}

}  // namespace

double chain_f1_score(const LabelSequence& prediction, const LabelSequence& label, int target) {
  std::size_t both = 0, predicted = 0, gold = 0;
  for (std::size_t t = 0; t < label.size(); ++t) {
    const bool p = prediction[t] == target;
    const bool g = label[t] == target;
    both += p && g;
    predicted += p;
    gold += g;
  }
  if (predicted + gold == 0) return 1.0;
  return 2.0 * static_cast<double>(both) / static_cast<double>(predicted + gold);
}

LinearChainF1Game::LinearChainF1Game(ChainScores potentials, int target)
    : potentials_(std::move(potentials)), target_(target) {
  const int m = potentials_.labels();
  if (potentials_.length() == 0) throw Error("linear-chain F1 game: empty sequence");
  if (m < 2) throw Error("linear-chain F1 game: needs at least 2 labels");
  if (target < 0 || target >= m) throw Error("linear-chain F1 game: target label outside 0..m-1");
  if (potentials_.transition.rows() != m + 1 || potentials_.transition.cols() != m)
    throw Error("linear-chain F1 game: transition potentials must be (m+1) x m");
  if (!potentials_.unary.allFinite() || !potentials_.transition.allFinite())
    throw Error("linear-chain F1 game: non-finite potential");
  // psi_max(k) for every k: one psi-only MSUM over all counts (the adversary's bounds).
  std::vector<double> value, next;
  const std::vector<double> final_values =
      msum_dp(potentials_, target_, Eigen::MatrixXd(), length(), -1, false, nullptr, value, next);
  psi_max_.assign(length() + 1, kMinusInfinity);
  for (std::size_t r = 0; r <= length(); ++r)
    for (int c = 0; c < m; ++c)
      psi_max_[r] = std::max(psi_max_[r], final_values[r * static_cast<std::size_t>(m) + static_cast<std::size_t>(c)]);
}

bool LinearChainF1Game::is_sequence(const LabelSequence& a) const {
  if (a.size() != length()) return false;
  return std::all_of(a.begin(), a.end(), [&](int c) { return c >= 0 && c < potentials_.labels(); });
}

LabelSequence LinearChainF1Game::from_binary(const std::vector<bool>& binary) const {
  LabelSequence out(binary.size());
  for (std::size_t t = 0; t < binary.size(); ++t) out[t] = binary[t] ? target_ : other_label();
  return out;
}

std::vector<LabelSequence> LinearChainF1Game::initial_predictor_actions() const {
  return {LabelSequence(length(), other_label()), LabelSequence(length(), target_)};
}

std::vector<LabelSequence> LinearChainF1Game::initial_adversary_actions() const {
  return initial_predictor_actions();
}

BestResponse<LabelSequence> LinearChainF1Game::predictor_best_response(
    const MixedStrategy<LabelSequence>& adversary) const {
  const std::size_t T = length();
  double p0 = 0.0;
  const Eigen::MatrixXd f = gfm_matrix(adversary, T, target_, p0);
  double best = p0;  // k = 0: F1(0, y) = 1 only against |y|_C = 0
  std::vector<bool> chosen(T, false);
  std::vector<std::size_t> order(T);
  for (std::size_t k = 1; k <= T; ++k) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto column = static_cast<Eigen::Index>(k);
    // The k largest F(t, k), ties to the smaller position.
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](std::size_t a, std::size_t b) {
                        const double fa = f(static_cast<Eigen::Index>(a), column);
                        const double fb = f(static_cast<Eigen::Index>(b), column);
                        return fa > fb || (fa == fb && a < b);
                      });
    double value = 0.0;
    for (std::size_t i = 0; i < k; ++i) value += f(static_cast<Eigen::Index>(order[i]), column);
    if (value > best) {
      best = value;
      std::fill(chosen.begin(), chosen.end(), false);
      for (std::size_t i = 0; i < k; ++i) chosen[order[i]] = true;
    }
  }
  double expected_potential = 0.0;
  for (std::size_t j = 0; j < adversary.size(); ++j)
    expected_potential += adversary.probabilities[j] * potential(adversary.actions[j]);
  return {from_binary(chosen), best - expected_potential};
}

BestResponse<LabelSequence> LinearChainF1Game::adversary_best_response(
    const MixedStrategy<LabelSequence>& predictor) const {
  const auto T = static_cast<Eigen::Index>(length());
  const int m = potentials_.labels();
  const auto M = static_cast<std::size_t>(m);
  const int C = target_;
  double p0 = 0.0;
  const Eigen::MatrixXd f = gfm_matrix(predictor, length(), C, p0);

  std::vector<double> value, next;
  auto chain_dp = [&](std::size_t R, Eigen::Index cost_column, bool exact, std::vector<std::int8_t>* back) {
    return msum_dp(potentials_, C, f, R, cost_column, exact, back, value, next);
  };
  auto best_final = [&](const std::vector<double>& final_values, std::size_t r) {
    std::pair<double, int> best{kMinusInfinity, -1};
    for (int c = 0; c < m; ++c)
      if (final_values[r * M + static_cast<std::size_t>(c)] > best.first)
        best = {final_values[r * M + static_cast<std::size_t>(c)], c};
    return best;
  };

  // Bounds: psi_max(k) = max psi over sequences with exactly k C labels (one DP for all k), and
  // since f >= 0, E_k <= psi_max(k) - (sum of the k smallest f(t, k)). E_0 = psi_max(0) - p0
  // exactly. Exact E_k are computed in decreasing order of the bound until the bound cannot beat
  // the best value found: the result equals the maximum over all k.
  std::vector<double> bound(static_cast<std::size_t>(T) + 1);
  std::vector<double> column(static_cast<std::size_t>(T));
  for (Eigen::Index k = 1; k <= T; ++k) {
    for (Eigen::Index t = 0; t < T; ++t) column[static_cast<std::size_t>(t)] = f(t, k);
    std::nth_element(column.begin(), column.begin() + (k - 1), column.end());
    double smallest = 0.0;
    for (Eigen::Index i = 0; i < k; ++i) smallest += column[static_cast<std::size_t>(i)];
    bound[static_cast<std::size_t>(k)] = psi_max_[static_cast<std::size_t>(k)] - smallest;
  }
  double best_value = psi_max_[0] - p0;
  Eigen::Index best_k = 0;
  std::vector<Eigen::Index> order;
  for (Eigen::Index k = 1; k <= T; ++k) order.push_back(k);
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    return bound[static_cast<std::size_t>(a)] > bound[static_cast<std::size_t>(b)];
  });
  for (Eigen::Index k : order) {
    if (bound[static_cast<std::size_t>(k)] <= best_value) break;
    const double e = best_final(chain_dp(static_cast<std::size_t>(k), k, true, nullptr), static_cast<std::size_t>(k)).first;
    if (e > best_value || (e == best_value && k < best_k)) {
      best_value = e;
      best_k = k;
    }
  }

  // Backtrack the argmax sequence of the best k.
  std::vector<std::int8_t> back;
  const auto K = static_cast<std::size_t>(best_k);
  const std::vector<double> final_values = chain_dp(K, best_k == 0 ? -1 : best_k, true, &back);
  const std::size_t states = (K + 1) * M;
  LabelSequence sequence(static_cast<std::size_t>(T));
  int c = best_final(final_values, K).second;
  std::size_t r = K;
  for (Eigen::Index t = T - 1; t >= 0; --t) {
    sequence[static_cast<std::size_t>(t)] = c;
    if (t == 0) break;
    const int previous = back[static_cast<std::size_t>(t) * states + r * M + static_cast<std::size_t>(c)];
    if (c == C) --r;
    c = previous;
  }
  return {std::move(sequence), -best_value};
}

bool has_zero_potentials(const ChainScores& potentials) {
  return (potentials.unary.array() == 0.0).all() && (potentials.transition.array() == 0.0).all();
}

namespace {

// The size game of a length-T chain with zero potentials (see solve_zero_potential_chain_game):
// its LP equilibrium and both best-response values, solved once per T.
struct SizeGame {
  MatrixGameSolution equilibrium;
  double predictor_response = 0.0;  // max_k (A q)_k
  double adversary_response = 0.0;  // min_s (p' A)_s
};

SizeGame solve_size_game(std::size_t length) {
  const auto n = static_cast<Eigen::Index>(length) + 1;
  const auto T = static_cast<double>(length);
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
  a(0, 0) = 1.0;
  for (Eigen::Index k = 1; k < n; ++k)
    for (Eigen::Index s = 1; s < n; ++s) {
      const auto dk = static_cast<double>(k);
      const auto ds = static_cast<double>(s);
      a(k, s) = 2.0 * dk * ds / (T * (dk + ds));
    }
  SizeGame game;
  game.equilibrium = solve_matrix_game(a, default_lp_backend());
  game.predictor_response = (a * game.equilibrium.column_strategy).maxCoeff();
  game.adversary_response = (game.equilibrium.row_strategy.transpose() * a).minCoeff();
  return game;
}

const SizeGame& cached_size_game(std::size_t length) {
  static std::mutex mutex;
  static std::map<std::size_t, SizeGame> games;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = games.find(length);
  if (found == games.end()) found = games.emplace(length, solve_size_game(length)).first;
  return found->second;  // map nodes are stable
}

// A size strategy spread evenly over the positions (see the header).
MixedStrategy<LabelSequence> spread(const Eigen::VectorXd& sizes, std::size_t length, int target, int other) {
  MixedStrategy<LabelSequence> strategy;
  for (Eigen::Index size = 0; size < sizes.size(); ++size) {
    const double probability = sizes[size];
    if (!(probability > 0.0)) continue;
    const auto s = static_cast<std::size_t>(size);
    const std::size_t blocks = s == 0 || s == length ? 1 : length / std::gcd(length, s);
    for (std::size_t r = 0; r < blocks; ++r) {
      LabelSequence action(length, other);
      for (std::size_t j = 0; j < s; ++j) action[(r * s + j) % length] = target;
      strategy.actions.push_back(std::move(action));
      strategy.probabilities.push_back(probability / static_cast<double>(blocks));
    }
  }
  return strategy;
}

}  // namespace

GameSolution<LabelSequence> solve_zero_potential_chain_game(const LinearChainF1Game& game, double tolerance) {
  if (!has_zero_potentials(game.potentials()))
    throw Error("solve_zero_potential_chain_game: the potentials are not all 0");
  const auto start = std::chrono::steady_clock::now();
  const SizeGame& sizes = cached_size_game(game.length());
  GameSolution<LabelSequence> solution;
  solution.predictor = spread(sizes.equilibrium.row_strategy, game.length(), game.target(), game.other_label());
  solution.adversary = spread(sizes.equilibrium.column_strategy, game.length(), game.target(), game.other_label());
  DoubleOracleSummary& summary = solution.summary;
  summary.iterations = 1;
  summary.value = sizes.equilibrium.value;
  summary.predictor_response_value = sizes.predictor_response;
  summary.adversary_response_value = sizes.adversary_response;
  summary.gap = sizes.predictor_response - sizes.adversary_response;
  summary.status = summary.gap <= tolerance ? DoubleOracleStatus::converged : DoubleOracleStatus::stalled;
  summary.predictor_actions = summary.predictor_support = static_cast<int>(solution.predictor.size());
  summary.adversary_actions = summary.adversary_support = static_cast<int>(solution.adversary.size());
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return solution;
}

}  // namespace mpg
