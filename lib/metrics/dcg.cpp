#include "lib/metrics/dcg.hpp"

#include <algorithm>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg {

DcgGame::DcgGame(Eigen::MatrixXd potentials, DcgDiscount discount, std::vector<DocumentKey> keys)
    : potentials_(std::move(potentials)), discount_(discount) {
  if (potentials_.rows() < 1 || potentials_.cols() < 2)
    throw Error("DcgGame: potentials must be n x L with n >= 1 documents and L >= 2 levels");
  if (!keys.empty() && keys.size() != documents())
    throw Error("DcgGame: " + std::to_string(keys.size()) + " document keys for " + std::to_string(documents()) +
                " documents");
  for (std::size_t r = 1; r <= documents(); ++r) discounts_.push_back(dcg_discount(discount_, r));
  std::vector<int> priority(documents());
  std::iota(priority.begin(), priority.end(), 0);
  const Eigen::Index top = potentials_.cols() - 1;
  std::stable_sort(priority.begin(), priority.end(), [&](int a, int b) {
    if (potentials_(a, top) != potentials_(b, top)) return potentials_(a, top) > potentials_(b, top);
    return !keys.empty() && keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)];
  });
  priority_rank_.resize(documents());
  for (std::size_t place = 0; place < priority.size(); ++place)
    priority_rank_[static_cast<std::size_t>(priority[place])] = static_cast<int>(place);
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
