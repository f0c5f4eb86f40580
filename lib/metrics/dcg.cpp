#include "lib/metrics/dcg.hpp"

#include <algorithm>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg {

DcgDiscount parse_dcg_discount(const std::string& name) {
  if (name == "thesis") return DcgDiscount::thesis;
  if (name == "letor") return DcgDiscount::letor;
  throw Error("unknown DCG discount '" + name + "' (expected 'thesis' or 'letor')");
}

std::string to_string(DcgDiscount discount) { return discount == DcgDiscount::thesis ? "thesis" : "letor"; }

double dcg_discount(DcgDiscount discount, std::size_t position) {
  const double r = static_cast<double>(position);
  if (discount == DcgDiscount::thesis) return 1.0 / std::log2(r + 1.0);
  return position <= 2 ? 1.0 : 1.0 / std::log2(r);
}

double dcg(const Ranking& order, const std::vector<int>& relevance, DcgDiscount discount, std::size_t k) {
  const std::size_t last = k == 0 ? order.size() : std::min(k, order.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < last; ++i)
    sum += relevance_gain(relevance[static_cast<std::size_t>(order[i])]) * dcg_discount(discount, i + 1);
  return sum;
}

Ranking ideal_ranking(const std::vector<int>& relevance) {
  Ranking order(relevance.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return relevance[static_cast<std::size_t>(a)] > relevance[static_cast<std::size_t>(b)];
  });
  return order;
}

Ranking ranking_by_scores(const Eigen::VectorXd& scores) {
  Ranking order(static_cast<std::size_t>(scores.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return scores[a] > scores[b]; });
  return order;
}

QueryMetrics evaluate_ranking(const Ranking& order, const std::vector<int>& relevance, DcgDiscount discount,
                              std::size_t max_k) {
  const std::size_t n = order.size();
  if (relevance.size() != n) throw Error("evaluate_ranking: ranking and relevance differ in length");
  QueryMetrics m;
  m.ndcg_at.assign(max_k, 0.0);
  m.precision_at.assign(max_k, 0.0);
  const Ranking ideal = ideal_ranking(relevance);
  const std::size_t positions = std::max(n, max_k);
  double running = 0.0, ideal_running = 0.0, ndcg_sum = 0.0, precision_sum = 0.0;
  int hits = 0;
  int relevant = 0;
  for (int r : relevance) relevant += r > 0;
  for (std::size_t i = 0; i < positions; ++i) {
    if (i < n) {
      const int rel = relevance[static_cast<std::size_t>(order[i])];
      running += relevance_gain(rel) * dcg_discount(discount, i + 1);
      ideal_running += relevance_gain(relevance[static_cast<std::size_t>(ideal[i])]) * dcg_discount(discount, i + 1);
      if (rel > 0) {
        ++hits;
        precision_sum += static_cast<double>(hits) / static_cast<double>(i + 1);
      }
    }
    const double ndcg = ideal_running > 0.0 ? running / ideal_running : 0.0;
    if (i < n) ndcg_sum += ndcg;
    if (i < max_k) {
      m.ndcg_at[i] = ndcg;
      m.precision_at[i] = static_cast<double>(hits) / static_cast<double>(i + 1);
    }
  }
  m.mean_ndcg = n > 0 ? ndcg_sum / static_cast<double>(n) : 0.0;
  m.average_precision = relevant > 0 ? precision_sum / relevant : 0.0;
  return m;
}

void RankingMetrics::add(const QueryMetrics& query) {
  if (ndcg_at.empty()) {
    ndcg_at.assign(query.ndcg_at.size(), 0.0);
    precision_at.assign(query.precision_at.size(), 0.0);
  }
  for (std::size_t k = 0; k < ndcg_at.size(); ++k) {
    ndcg_at[k] += query.ndcg_at[k];
    precision_at[k] += query.precision_at[k];
  }
  mean_ndcg += query.mean_ndcg;
  map += query.average_precision;
  ++queries;
}

void RankingMetrics::finish() {
  if (queries == 0) return;
  const double q = queries;
  for (auto& v : ndcg_at) v /= q;
  for (auto& v : precision_at) v /= q;
  mean_ndcg /= q;
  map /= q;
}

// ---- The game ---------------------------------------------------------------------------------

DcgGame::DcgGame(Eigen::MatrixXd potentials, DcgDiscount discount)
    : potentials_(std::move(potentials)), discount_(discount) {
  if (potentials_.rows() < 1 || potentials_.cols() < 2)
    throw Error("DcgGame: potentials must be n x L with n >= 1 documents and L >= 2 levels");
  for (std::size_t r = 1; r <= documents(); ++r) discounts_.push_back(dcg_discount(discount_, r));
}

double DcgGame::score(const Action& order, const Action& relevance) const {
  double sum = 0.0;
  for (std::size_t i = 0; i < order.size(); ++i)
    sum += relevance_gain(relevance[static_cast<std::size_t>(order[i])]) * discounts_[i];
  return sum;
}

double DcgGame::potential(const Action& relevance) const {
  double sum = 0.0;
  for (std::size_t j = 0; j < relevance.size(); ++j) sum += potentials_(static_cast<Eigen::Index>(j), relevance[j]);
  return sum;
}

std::vector<DcgGame::Action> DcgGame::initial_predictor_actions() const {
  // The order a predictor would choose if the adversary played each document's most
  // potential-favoured level: by expected gain of argmax_s psi_j(s).
  Eigen::VectorXd gains(potentials_.rows());
  for (Eigen::Index j = 0; j < potentials_.rows(); ++j) {
    Eigen::Index best = 0;
    potentials_.row(j).maxCoeff(&best);
    gains[j] = relevance_gain(static_cast<int>(best));
  }
  return {ranking_by_scores(gains)};
}

std::vector<DcgGame::Action> DcgGame::initial_adversary_actions() const {
  // Against the initial order: the adversary's best response to it.
  MixedStrategy<Action> predictor;
  predictor.actions = initial_predictor_actions();
  predictor.probabilities = {1.0};
  return {adversary_best_response(predictor).action};
}

bool DcgGame::is_legal_predictor_action(const Action& action) const {
  if (action.size() != documents()) return false;
  std::vector<char> seen(documents(), 0);
  for (int d : action) {
    if (d < 0 || static_cast<std::size_t>(d) >= documents() || seen[static_cast<std::size_t>(d)]) return false;
    seen[static_cast<std::size_t>(d)] = 1;
  }
  return true;
}

bool DcgGame::is_legal_adversary_action(const Action& action) const {
  if (action.size() != documents()) return false;
  for (int s : action)
    if (s < 0 || s >= levels()) return false;
  return true;
}

BestResponse<DcgGame::Action> DcgGame::predictor_best_response(const MixedStrategy<Action>& adversary) const {
  Eigen::VectorXd expected_gain = Eigen::VectorXd::Zero(potentials_.rows());
  double expected_potential = 0.0;
  for (std::size_t a = 0; a < adversary.size(); ++a) {
    const double p = adversary.probabilities[a];
    for (std::size_t j = 0; j < documents(); ++j)
      expected_gain[static_cast<Eigen::Index>(j)] += p * relevance_gain(adversary.actions[a][j]);
    expected_potential += p * potential(adversary.actions[a]);
  }
  BestResponse<Action> response;
  response.action = ranking_by_scores(expected_gain);
  double value = 0.0;
  for (std::size_t i = 0; i < documents(); ++i) value += expected_gain[response.action[i]] * discounts_[i];
  response.value = value - expected_potential;
  return response;
}

BestResponse<DcgGame::Action> DcgGame::adversary_best_response(const MixedStrategy<Action>& predictor) const {
  std::vector<double> expected_discount(documents(), 0.0);
  for (std::size_t a = 0; a < predictor.size(); ++a)
    for (std::size_t i = 0; i < documents(); ++i)
      expected_discount[static_cast<std::size_t>(predictor.actions[a][i])] += predictor.probabilities[a] * discounts_[i];
  BestResponse<Action> response;
  response.action.resize(documents());
  for (std::size_t j = 0; j < documents(); ++j) {
    int best_level = 0;
    double best = 0.0;
    for (int s = 0; s < levels(); ++s) {
      const double cost = relevance_gain(s) * expected_discount[j] - potentials_(static_cast<Eigen::Index>(j), s);
      if (s == 0 || cost < best) {
        best = cost;
        best_level = s;
      }
    }
    response.action[j] = best_level;
    response.value += best;
  }
  return response;
}

}  // namespace mpg

namespace mpg {

double DcgGame::predictor_value_against_marginals(const Eigen::MatrixXd& marginals) const {
  Eigen::VectorXd expected_gain = Eigen::VectorXd::Zero(potentials_.rows());
  double expected_potential = 0.0;
  for (Eigen::Index j = 0; j < potentials_.rows(); ++j)
    for (int s = 0; s < levels(); ++s) {
      expected_gain[j] += marginals(j, s) * relevance_gain(s);
      expected_potential += marginals(j, s) * potentials_(j, s);
    }
  const Ranking order = ranking_by_scores(expected_gain);
  double value = 0.0;
  for (std::size_t i = 0; i < order.size(); ++i) value += expected_gain[order[i]] * discounts_[i];
  return value - expected_potential;
}

}  // namespace mpg
