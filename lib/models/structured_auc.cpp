#include "lib/models/structured_auc.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg {

// ---- Encoding ------------------------------------------------------------------------------

std::vector<int> positions_of(const std::vector<int>& order) {
  const auto n = static_cast<int>(order.size());
  std::vector<int> position(order.size(), -1);
  for (int p = 0; p < n; ++p) {
    const int item = order[static_cast<std::size_t>(p)];
    if (item < 0 || item >= n || position[static_cast<std::size_t>(item)] >= 0)
      throw Error("ranking: position " + std::to_string(p) + " holds item " + std::to_string(item) +
                  ", which is out of range or repeated (not a permutation of 0.." + std::to_string(n - 1) + ")");
    position[static_cast<std::size_t>(item)] = p;
  }
  return position;
}

NestedRanking nested_from_order(const std::vector<int>& order) {
  const std::vector<int> position = positions_of(order);
  const auto n = static_cast<int>(order.size());
  NestedRanking z = NestedRanking::Zero(n, n);
  // Item at position p is on from level p + 1 (row p) down.
  for (int i = 0; i < n; ++i)
    for (int k = position[static_cast<std::size_t>(i)]; k < n; ++k) z(k, i) = 1;
  return z;
}

std::string nested_ranking_violation(const NestedRanking& z) {
  if (z.rows() != z.cols())
    return "shape " + std::to_string(z.rows()) + " x " + std::to_string(z.cols()) + " is not square";
  const auto n = z.rows();
  for (long k = 0; k < n; ++k)
    for (long i = 0; i < n; ++i)
      if (z(k, i) != 0 && z(k, i) != 1)
        return "z(" + std::to_string(k) + ", " + std::to_string(i) + ") = " + std::to_string(z(k, i)) + " is not 0 or 1";
  for (long k = 0; k < n; ++k)
    if (z.row(k).sum() != k + 1)
      return "row " + std::to_string(k) + " sums to " + std::to_string(z.row(k).sum()) + ", expected " + std::to_string(k + 1);
  for (long k = 0; k + 1 < n; ++k)
    for (long i = 0; i < n; ++i)
      if (z(k, i) > z(k + 1, i))
        return "nesting: z(" + std::to_string(k) + ", " + std::to_string(i) + ") = 1 > z(" + std::to_string(k + 1) +
               ", " + std::to_string(i) + ") = 0";
  return "";
}

std::vector<int> order_from_nested(const NestedRanking& z) {
  if (const std::string violation = nested_ranking_violation(z); !violation.empty())
    throw Error("invalid nested ranking: " + violation);
  const auto n = static_cast<int>(z.rows());
  std::vector<int> order(static_cast<std::size_t>(n));
  // The item that is on at level k + 1 but not at level k is at position k.
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(n - z.col(i).sum())] = i;
  return order;
}

// ---- AUC loss ------------------------------------------------------------------------------

namespace {

std::pair<std::size_t, std::size_t> class_sizes(const std::vector<int>& labels, const char* what) {
  std::size_t pos = 0, neg = 0;
  for (int y : labels) {
    if (y != 0 && y != 1) throw Error(std::string(what) + ": label " + std::to_string(y) + " is not 0 or 1");
    (y == 1 ? pos : neg) += 1;
  }
  if (pos == 0 || neg == 0)
    throw Error(std::string(what) + ": needs positive and negative items (AUC is undefined), got " +
                std::to_string(pos) + " and " + std::to_string(neg));
  return {pos, neg};
}

// Number of (pos, neg) pairs with the negative above the positive, counting only negatives for
// which `counts(position of negative, position of positive)` holds.
template <typename Counts>
std::size_t swapped_pairs(const std::vector<int>& order, const std::vector<int>& labels, Counts counts) {
  if (order.size() != labels.size())
    throw Error("AUC: order of " + std::to_string(order.size()) + " items for " + std::to_string(labels.size()) + " labels");
  positions_of(order);
  std::size_t swapped = 0;
  std::vector<int> negatives_above;  // positions of the negatives seen so far
  for (std::size_t p = 0; p < order.size(); ++p) {
    const int item = order[p];
    if (labels[static_cast<std::size_t>(item)] == 0) {
      negatives_above.push_back(static_cast<int>(p));
    } else {
      for (int q : negatives_above) swapped += counts(q, static_cast<int>(p));
    }
  }
  return swapped;
}

}  // namespace

double auc_margin(const std::vector<int>& labels) {
  const auto [pos, neg] = class_sizes(labels, "auc_margin");
  return 1.0 / (static_cast<double>(pos) * static_cast<double>(neg));
}

double auc_loss(const std::vector<int>& order, const std::vector<int>& labels) {
  const double c = auc_margin(labels);
  return c * static_cast<double>(swapped_pairs(order, labels, [](int, int) { return true; }));
}

double binned_auc(const std::vector<int>& order, const std::vector<int>& labels, int bin_size) {
  if (bin_size < 1) throw Error("binned_auc: bin size " + std::to_string(bin_size) + " must be >= 1");
  const double c = auc_margin(labels);
  const auto swapped = swapped_pairs(order, labels, [bin_size](int q, int p) { return q / bin_size != p / bin_size; });
  return 1.0 - c * static_cast<double>(swapped);
}

double auc_at_k(const std::vector<int>& order, const std::vector<int>& labels, int k) {
  if (k < 1) throw Error("auc_at_k: k = " + std::to_string(k) + " must be >= 1");
  const double c = auc_margin(labels);
  return 1.0 - c * static_cast<double>(swapped_pairs(order, labels, [k](int q, int) { return q < k; }));
}

// ---- Fully factored model ------------------------------------------------------------------

double factored_score(const Eigen::VectorXd& a, const std::vector<int>& order) {
  if (static_cast<std::size_t>(a.size()) != order.size())
    throw Error("factored_score: " + std::to_string(a.size()) + " scores for " + std::to_string(order.size()) + " items");
  const std::vector<int> position = positions_of(order);
  const auto n = static_cast<double>(order.size());
  double score = 0.0;
  for (long i = 0; i < a.size(); ++i) score += a(i) * (n - position[static_cast<std::size_t>(i)]);
  return score;
}

namespace {

// Items by descending key (a_i - c for positives, a_j for negatives); among equal keys the label
// `first_on_ties` comes first, then the lower item index.
std::vector<int> order_by_key(const Eigen::VectorXd& a, const std::vector<int>& labels, double c, int first_on_ties) {
  std::vector<int> order(labels.size());
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int i) { return labels[static_cast<std::size_t>(i)] == 1 ? a(i) - c : a(i); };
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    if (key(i) != key(j)) return key(i) > key(j);
    const int li = labels[static_cast<std::size_t>(i)], lj = labels[static_cast<std::size_t>(j)];
    if (li != lj) return li == first_on_ties;
    return i < j;
  });
  return order;
}

void check_scores(const Eigen::VectorXd& a, const std::vector<int>& labels, const char* what) {
  if (static_cast<std::size_t>(a.size()) != labels.size())
    throw Error(std::string(what) + ": " + std::to_string(a.size()) + " scores for " + std::to_string(labels.size()) + " labels");
}

}  // namespace

std::vector<int> loss_augmented_order(const Eigen::VectorXd& a, const std::vector<int>& labels) {
  check_scores(a, labels, "loss_augmented_order");
  return order_by_key(a, labels, auc_margin(labels), 0);
}

std::vector<int> label_consistent_order(const Eigen::VectorXd& a, const std::vector<int>& labels) {
  check_scores(a, labels, "label_consistent_order");
  class_sizes(labels, "label_consistent_order");
  std::vector<int> order(labels.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    if (labels[static_cast<std::size_t>(i)] != labels[static_cast<std::size_t>(j)]) return labels[static_cast<std::size_t>(i)] > labels[static_cast<std::size_t>(j)];
    if (a(i) != a(j)) return a(i) > a(j);
    return i < j;
  });
  return order;
}

double structured_auc_hinge(const Eigen::VectorXd& a, const std::vector<int>& labels) {
  const std::vector<int> augmented = loss_augmented_order(a, labels);
  const std::vector<int> consistent = label_consistent_order(a, labels);
  return factored_score(a, augmented) + auc_loss(augmented, labels) - factored_score(a, consistent);
}

double pairwise_auc_hinge_reference(const Eigen::VectorXd& a, const std::vector<int>& labels) {
  check_scores(a, labels, "pairwise_auc_hinge_reference");
  const double c = auc_margin(labels);
  double total = 0.0;
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = 0; j < labels.size(); ++j)
      if (labels[i] == 1 && labels[j] == 0)
        total += std::max(0.0, c + a(static_cast<long>(j)) - a(static_cast<long>(i)));
  return total;
}

double pairwise_auc_hinge(const Eigen::VectorXd& a, const std::vector<int>& labels, Eigen::VectorXd* gradient) {
  check_scores(a, labels, "pairwise_auc_hinge");
  const double c = auc_margin(labels);
  // Pair (i, j) is active iff a_j > a_i - c. Sweep all items by key (a_i - c for positives, a_j
  // for negatives) in descending order; at a positive, the active negatives are those seen before
  // it. Ties: a negative with a_j = a_i - c is inactive, so positives come first among equal keys.
  const std::vector<int> order = order_by_key(a, labels, c, 1);
  if (gradient) *gradient = Eigen::VectorXd::Zero(a.size());
  double total = 0.0, negatives_sum = 0.0;
  std::size_t negatives_seen = 0;
  // Pass 1 (descending): each positive's active negatives are the negatives seen so far.
  for (int item : order) {
    if (labels[static_cast<std::size_t>(item)] == 0) {
      ++negatives_seen;
      negatives_sum += a(item);
    } else {
      total += static_cast<double>(negatives_seen) * (c - a(item)) + negatives_sum;
      if (gradient) (*gradient)(item) -= static_cast<double>(negatives_seen);
    }
  }
  // Pass 2 (ascending): each negative is active with the positives seen so far from below.
  if (gradient) {
    std::size_t positives_seen = 0;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      if (labels[static_cast<std::size_t>(*it)] == 1) {
        ++positives_seen;
      } else {
        (*gradient)(*it) += static_cast<double>(positives_seen);
      }
    }
  }
  return total;
}

namespace {

// lambda/2 ||w||^2 + (1/M) sum_m hinge_m(X_m w).
class FactoredAucObjective : public Objective {
 public:
  FactoredAucObjective(const std::vector<const AucExample*>& examples, double lambda)
      : examples_(examples), lambda_(lambda) {}
  double evaluate(const Eigen::VectorXd& w, Eigen::VectorXd& gradient) override {
    const double scale = 1.0 / static_cast<double>(examples_.size());
    double value = 0.5 * lambda_ * w.squaredNorm();
    gradient = lambda_ * w;
    Eigen::VectorXd da;
    for (const AucExample* example : examples_) {
      const Eigen::VectorXd a = example->features * w;
      value += scale * pairwise_auc_hinge(a, example->labels, &da);
      gradient.noalias() += scale * (example->features.transpose() * da);
    }
    return value;
  }

 private:
  std::vector<const AucExample*> examples_;
  double lambda_;
};

bool has_both_classes(const std::vector<int>& labels) {
  bool pos = false, neg = false;
  for (int y : labels) (y == 1 ? pos : neg) = true;
  return pos && neg;
}

}  // namespace

Eigen::VectorXd train_factored_auc(const std::vector<AucExample>& examples, const FactoredAucOptions& options,
                                   FactoredAucSummary* summary) {
  const auto start = std::chrono::steady_clock::now();
  options.validate();
  std::vector<const AucExample*> used;
  long d = -1;
  FactoredAucSummary result;
  for (const AucExample& example : examples) {
    if (static_cast<std::size_t>(example.features.rows()) != example.labels.size())
      throw Error("train_factored_auc: an example has " + std::to_string(example.features.rows()) + " rows for " +
                  std::to_string(example.labels.size()) + " labels");
    if (d >= 0 && example.features.cols() != d) throw Error("train_factored_auc: examples differ in feature count");
    d = example.features.cols();
    for (int y : example.labels)
      if (y != 0 && y != 1) throw Error("train_factored_auc: label " + std::to_string(y) + " is not 0 or 1");
    if (has_both_classes(example.labels)) {
      used.push_back(&example);
    } else {
      ++result.examples_skipped;
    }
  }
  if (used.empty()) throw Error("train_factored_auc: no example has both positive and negative items");
  result.examples_used = used.size();
  Eigen::VectorXd w = Eigen::VectorXd::Zero(d);
  FactoredAucObjective objective(used, options.lambda);
  OptimizerOptions optimizer = options.optimizer;
  if (optimizer.kind == OptimizerKind::cutting_plane) optimizer.regularization = options.lambda;
  const OptimizerSummary s = minimize(objective, w, optimizer);
  result.converged = s.converged();
  result.iterations = s.iterations;
  result.primal = s.final_value;
  result.lower_bound = s.lower_bound;
  result.message = s.message;
  for (const AucExample* e : used)
    result.pairs += static_cast<std::size_t>(std::count(e->labels.begin(), e->labels.end(), 1)) *
                    static_cast<std::size_t>(std::count(e->labels.begin(), e->labels.end(), 0));
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (summary) *summary = result;
  return w;
}

double mean_example_auc(const std::vector<AucExample>& examples, const Eigen::VectorXd& weights) {
  const std::vector<double> aucs = example_aucs(examples, weights);
  if (aucs.empty()) throw Error("mean_example_auc: no example has both positive and negative items");
  double total = 0.0;
  for (double auc : aucs) total += auc;
  return total / static_cast<double>(aucs.size());
}

std::vector<double> example_aucs(const std::vector<AucExample>& examples, const Eigen::VectorXd& weights) {
  std::vector<double> aucs;
  for (const AucExample& example : examples) {
    if (!has_both_classes(example.labels)) continue;
    const Eigen::VectorXd a = example.features * weights;
    // Fraction of (pos, neg) pairs ordered correctly, a tie counting 1/2: the AUC of the order by
    // descending score averaged over the tie-breaks, so it does not depend on the item order.
    double correct = 0.0, pairs = 0.0;
    for (std::size_t i = 0; i < example.labels.size(); ++i) {
      if (example.labels[i] != 1) continue;
      for (std::size_t j = 0; j < example.labels.size(); ++j) {
        if (example.labels[j] != 0) continue;
        const double ai = a(static_cast<long>(i)), aj = a(static_cast<long>(j));
        correct += ai > aj ? 1.0 : (ai == aj ? 0.5 : 0.0);
        pairs += 1.0;
      }
    }
    aucs.push_back(correct / pairs);
  }
  return aucs;
}

}  // namespace mpg
