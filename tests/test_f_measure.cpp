// F-measures of Parambath's thesis ch. 2 (lib/eval/f_measure): the count and error-profile
// formulas, pseudo-linearity (Prop. 2, 6, 8), the Figure 2.2 example recomputed, Corollary 7 and
// Prop. 4 on discrete distributions by brute force, and the threshold searches against brute
// force (digest seed-003 §5 items 1-3, 6, 7, 8, 10).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/eval/f_measure.hpp"

using namespace mpg;

namespace {

// A discrete distribution over points: mass mu(x) and posterior eta(x) = mu(y = 1 | x).
struct Point {
  double mass;
  double eta;
};

// (P, FN, FP) of the classifier predicting positive on the points whose bit is set in `mask`.
struct Profile {
  double positives = 0.0;
  double fn = 0.0;
  double fp = 0.0;
};

Profile profile(const std::vector<Point>& points, unsigned mask) {
  Profile p;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double positive = points[i].mass * points[i].eta;
    p.positives += positive;
    if (mask & (1u << i)) {
      p.fp += points[i].mass - positive;
    } else {
      p.fn += positive;
    }
  }
  return p;
}

double f1_of(const std::vector<Point>& points, unsigned mask) {
  const Profile p = profile(points, mask);
  return f_beta_of_profile(p.positives, p.fn, p.fp);
}

// Brute force over thresholds: every distinct score and +infinity; the best F, ties to the
// higher threshold.
ThresholdChoice brute_force_threshold(const Eigen::VectorXd& scores, const std::vector<int>& labels,
                                      double beta) {
  std::set<double> candidates(scores.data(), scores.data() + scores.size());
  candidates.insert(std::numeric_limits<double>::infinity());
  ThresholdChoice best;
  best.f = -1.0;
  for (auto it = candidates.rbegin(); it != candidates.rend(); ++it) {
    const Confusion c = confusion_at(scores, labels, *it, true);
    const double f = f_beta(c, beta);
    if (f > best.f) {
      best.f = f;
      best.threshold = *it;
      best.counts = c;
    }
  }
  return best;
}

}  // namespace

TEST_CASE("F_beta from counts and from the error profile agree", "[f_measure]") {
  CHECK(f_beta({3, 2, 1, 10}) == Approx(6.0 / 9.0).margin(1e-15));
  CHECK(f_beta({3, 2, 1, 10}, 2.0) == Approx(15.0 / (15.0 + 4.0 + 2.0)).margin(1e-15));
  CHECK(f_beta({0, 0, 0, 7}) == 1.0);
  CHECK(f_beta({0, 0, 0, 7}, 1.0, 0.0) == 0.0);
  CHECK(f_beta({0, 4, 0, 7}) == 0.0);
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<long> count(0, 50);
  for (int trial = 0; trial < 200; ++trial) {
    const Confusion c{count(rng) + 1, count(rng), count(rng), count(rng)};
    for (const double beta : {0.5, 1.0, 2.0}) {
      const double n = static_cast<double>(c.total());
      const double from_profile =
          f_beta_of_profile(static_cast<double>(c.positives()) / n, static_cast<double>(c.fn) / n,
                            static_cast<double>(c.fp) / n, beta);
      CHECK(f_beta(c, beta) == Approx(from_profile).margin(1e-12));
    }
  }
  CHECK_THROWS_AS(f_beta({1, 0, 0, 0}, 0.0), Error);
  CHECK_THROWS_AS(f_beta({-1, 0, 0, 0}), Error);
  CHECK_THROWS_AS(f_beta_of_profile(0.0, 0.0, 0.0), Error);
}

TEST_CASE("F_beta is pseudo-linear: its level sets are the hyperplanes a(t).r + b(t) = 0", "[f_measure]") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 500; ++trial) {
    const double beta = trial % 3 == 0 ? 0.5 : (trial % 3 == 1 ? 1.0 : 2.0);
    const double p = 0.05 + 0.9 * unit(rng);
    const double fn = p * unit(rng);
    const double fp = (1.0 - p) * unit(rng);
    const double f = f_beta_of_profile(p, fn, fp, beta);
    const double t = (1.0 + beta * beta) * unit(rng);
    const auto [a_fn, a_fp] = f_beta_cost_vector(t, beta);
    const double level = a_fn * fn + a_fp * fp + f_beta_level_offset(t, p, beta);
    // Theorem 1 / Prop. 6: F >= t iff <a(t), r> + b(t) <= 0 (and the reverse).
    if (std::abs(f - t) > 1e-9) CHECK((level < 0.0) == (f > t));
    // At t = F(r) the point lies on the hyperplane.
    const auto [c_fn, c_fp] = f_beta_cost_vector(f, beta);
    CHECK(c_fn * fn + c_fp * fp + f_beta_level_offset(f, p, beta) == Approx(0.0).margin(1e-12));
    // Prop. 2: for F = (alpha0 + <gamma, r>) / (alpha1 + <delta, r>), a(t) = t delta - gamma and
    // b(t) = t alpha1 - alpha0; here alpha0 = (1+b2) P, gamma = (-(1+b2), 0), alpha1 = (1+b2) P,
    // delta = (-1, 1).
    const double b2 = beta * beta;
    CHECK(a_fn == Approx(t * -1.0 + (1.0 + b2)).margin(1e-15));
    CHECK(a_fp == Approx(t * 1.0 - 0.0).margin(1e-15));
    CHECK(f_beta_level_offset(t, p, beta) ==
          Approx(t * (1.0 + b2) * p - (1.0 + b2) * p).margin(1e-12));
  }
}

TEST_CASE("Micro-F is the F of the pooled problem and its cost vector repeats a(t) per label (Prop. 8)",
          "[f_measure]") {
  const std::vector<Confusion> labels = {{5, 2, 3, 40}, {1, 0, 4, 45}, {7, 6, 0, 37}};
  Confusion pooled;
  double p = 0.0, fn = 0.0, fp = 0.0;
  for (const Confusion& c : labels) {
    pooled += c;
    p += static_cast<double>(c.positives());
    fn += static_cast<double>(c.fn);
    fp += static_cast<double>(c.fp);
  }
  CHECK(f_beta(pooled) == Approx(2.0 * 13.0 / (26.0 + 7.0 + 8.0)).margin(1e-15));
  CHECK(f_beta(pooled) == Approx(f_beta_of_profile(p, fn, fp)).margin(1e-15));
  // The micro level set: sum_k (2 - t) FN_k + t FP_k + 2 (t - 1) sum_k P_k = 0 at t = mF.
  const double t = f_beta(pooled);
  double level = 2.0 * (t - 1.0) * p;
  for (const Confusion& c : labels) {
    const auto [a_fn, a_fp] = f_beta_cost_vector(t);
    level += a_fn * static_cast<double>(c.fn) + a_fp * static_cast<double>(c.fp);
  }
  CHECK(level == Approx(0.0).margin(1e-12));
  // Binary Jaccard = F1 / (2 - F1) (digest §2.1).
  const Confusion c{5, 2, 3, 40};
  CHECK(5.0 / (5.0 + 2.0 + 3.0) == Approx(f_beta(c) / (2.0 - f_beta(c))).margin(1e-15));
}

TEST_CASE("Figure 2.2: F1 of the eight classifiers, the weighted-sum candidates and the Bayes rule",
          "[f_measure]") {
  // mu(x) = (0.65, 0.30, 0.05), mu(y = 1 | x) = (0.70, 0.40, 0.15); bit i set = x_i predicted 1.
  const std::vector<Point> points = {{0.65, 0.70}, {0.30, 0.40}, {0.05, 0.15}};
  CHECK(profile(points, 0).positives == Approx(0.5825).margin(1e-15));
  // h_A..h_G of the figure (x0 x1 x2 with 1 = positive): A 222, B 221, C 212, D 122, E 121,
  // F 112, G 111, and the eighth classifier 211 the figure leaves out.
  const unsigned A = 0b000, B = 0b100, C = 0b010, D = 0b001, E = 0b101, F = 0b011, G = 0b111, H = 0b110;
  // Recomputed values (the thesis prints 2.22, 27.22 and 75.24 for A, C and F).
  CHECK(100.0 * f1_of(points, A) == Approx(0.0).margin(1e-12));
  CHECK(100.0 * f1_of(points, B) == Approx(2.3715).margin(1e-4));
  CHECK(100.0 * f1_of(points, C) == Approx(27.1955).margin(1e-4));
  CHECK(100.0 * f1_of(points, D) == Approx(73.8337).margin(1e-4));
  CHECK(100.0 * f1_of(points, E) == Approx(72.1248).margin(1e-4));
  CHECK(100.0 * f1_of(points, F) == Approx(75.0408).margin(1e-4));
  CHECK(100.0 * f1_of(points, G) == Approx(73.6177).margin(1e-4));
  CHECK(100.0 * f1_of(points, H) == Approx(27.3458).margin(1e-4));
  // (2,1,1) is dominated by h_D: more FN and more FP.
  CHECK(profile(points, H).fn > profile(points, D).fn);
  CHECK(profile(points, H).fp > profile(points, D).fp);

  // Classifiers reachable by weighted sums (2 - t) FN + t FP, t in (0, 2): {A, D, F, G} (the
  // thesis says c_A, c_D, c_F; G is optimal for t < 0.3).
  std::set<unsigned> reached;
  for (int step = 1; step < 2000; ++step) {
    const double t = step / 1000.0 + 1e-7;  // off the breakpoints
    unsigned best = 0;
    double best_cost = std::numeric_limits<double>::infinity();
    for (unsigned mask = 0; mask < 8; ++mask) {
      const Profile p = profile(points, mask);
      const double cost = (2.0 - t) * p.fn + t * p.fp;
      if (cost < best_cost) {
        best_cost = cost;
        best = mask;
      }
    }
    reached.insert(best);
  }
  CHECK(reached == std::set<unsigned>{A, D, F, G});

  // "c_B is optimal for min FN s.t. FP < 0.1".
  unsigned constrained = 0;
  for (unsigned mask = 0; mask < 8; ++mask) {
    if (profile(points, mask).fp < 0.1 && profile(points, mask).fn < profile(points, constrained).fn) {
      constrained = mask;
    }
  }
  CHECK(constrained == B);

  // Corollary 7: the Bayes rule predicts 1 iff eta >= F*/2 = 0.3752; it selects h_F = F*.
  const double f_star = f1_of(points, F);
  CHECK(cost_sensitive_bayes_threshold(1.0 - f_star / 2.0, f_star / 2.0) == Approx(f_star / 2.0).margin(1e-15));
  unsigned bayes = 0;
  for (unsigned i = 0; i < 3; ++i) {
    if (points[i].eta >= f_star / 2.0) bayes |= 1u << i;
  }
  CHECK(bayes == F);
  CHECK(f_star / 2.0 == Approx(0.3752).margin(1e-4));
}

TEST_CASE("Corollary 7 and Prop. 4 on random discrete distributions, against all classifiers",
          "[f_measure]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 300; ++trial) {
    const int m = 2 + trial % 9;
    std::vector<Point> points;
    double total = 0.0;
    for (int i = 0; i < m; ++i) {
      points.push_back({0.05 + unit(rng), unit(rng)});
      total += points.back().mass;
    }
    for (Point& p : points) p.mass /= total;
    double f_star = -1.0;
    unsigned best = 0;
    for (unsigned mask = 0; mask < (1u << m); ++mask) {
      const double f = f1_of(points, mask);
      if (f > f_star) {
        f_star = f;
        best = mask;
      }
    }
    // The Bayes rule of the cost vector a(F*) = (1 - F*/2, F*/2): eta >= F*/2.
    unsigned bayes = 0;
    for (int i = 0; i < m; ++i) {
      if (points[static_cast<std::size_t>(i)].eta >= f_star / 2.0) bayes |= 1u << i;
    }
    CHECK(f1_of(points, bayes) == Approx(f_star).margin(1e-12));
    // Prop. 4: the F-optimal classifier minimizes <a(F*), r> over all classifiers.
    const Profile pb = profile(points, best);
    const double best_cost = (2.0 - f_star) * pb.fn + f_star * pb.fp;
    for (unsigned mask = 0; mask < (1u << m); ++mask) {
      const Profile p = profile(points, mask);
      CHECK((2.0 - f_star) * p.fn + f_star * p.fp >= best_cost - 1e-12);
    }
  }
  // Digest item 10: costs (c_FN, c_FP) threshold eta at c_FP / (c_FN + c_FP); (2 - t, t) at t/2.
  CHECK(cost_sensitive_bayes_threshold(1.4, 0.6) == Approx(0.3).margin(1e-15));
  CHECK_THROWS_AS(cost_sensitive_bayes_threshold(0.0, 0.0), Error);
}

TEST_CASE("confusion_at applies the strict default rule and the inclusive threshold rule", "[f_measure]") {
  const Eigen::VectorXd scores = (Eigen::VectorXd(5) << -1.0, 0.0, 0.0, 0.5, 2.0).finished();
  const std::vector<int> labels = {0, 1, 0, 1, 1};
  CHECK(confusion_at(scores, labels, 0.0, false) == Confusion{2, 0, 1, 2});
  CHECK(confusion_at(scores, labels, 0.0, true) == Confusion{3, 1, 0, 1});
  CHECK_THROWS_AS(confusion_at(scores, {0, 1}, 0.0, false), Error);
  CHECK_THROWS_AS(confusion_at(scores, {0, 1, 2, 0, 0}, 0.0, false), Error);
}

TEST_CASE("best_threshold equals brute force over the scores, whatever the order of the examples",
          "[f_measure]") {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int> level(0, 6);
  std::bernoulli_distribution coin(0.35);
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 1 + trial % 23;
    Eigen::VectorXd scores(n);
    std::vector<int> labels(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      scores[i] = 0.5 * level(rng) - 1.0;  // many ties
      labels[static_cast<std::size_t>(i)] = coin(rng) ? 1 : 0;
    }
    const double beta = trial % 2 == 0 ? 1.0 : 2.0;
    const ThresholdChoice expected = brute_force_threshold(scores, labels, beta);
    const ThresholdChoice got = best_threshold(scores, labels, beta);
    CHECK(got.f == expected.f);
    CHECK(got.threshold == expected.threshold);
    CHECK(got.counts == expected.counts);
    // Permuted examples: same answer.
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    Eigen::VectorXd permuted_scores(n);
    std::vector<int> permuted_labels(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      permuted_scores[i] = scores[order[static_cast<std::size_t>(i)]];
      permuted_labels[static_cast<std::size_t>(i)] = labels[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
    }
    const ThresholdChoice again = best_threshold(permuted_scores, permuted_labels, beta);
    CHECK(again.threshold == got.threshold);
    CHECK(again.counts == got.counts);
  }
}

TEST_CASE("best_threshold: exact ties go to the higher threshold; no positive means predict none",
          "[f_measure]") {
  // Threshold 2 gives TP 1, FP 0, FN 1: F = 2/3; threshold 1 gives TP 2, FP 2: F = 4/6 = 2/3.
  const Eigen::VectorXd scores = (Eigen::VectorXd(4) << 2.0, 1.0, 1.0, 1.0).finished();
  const ThresholdChoice tie = best_threshold(scores, {1, 1, 0, 0});
  CHECK(tie.threshold == 2.0);
  CHECK(tie.f == Approx(2.0 / 3.0).margin(1e-15));
  CHECK(tie.candidates == 3);
  const ThresholdChoice none = best_threshold(scores, {0, 0, 0, 0});
  CHECK(none.threshold == std::numeric_limits<double>::infinity());
  CHECK(none.f == 1.0);
  CHECK(none.counts == Confusion{0, 0, 0, 4});
  CHECK_THROWS_AS(best_threshold((Eigen::VectorXd(1) << std::nan("")).finished(), {1}), Error);
}

TEST_CASE("best_pooled_threshold is one threshold over all labels' scores (micro-F)", "[f_measure]") {
  std::mt19937_64 rng(9);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::bernoulli_distribution coin(0.3);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Eigen::VectorXd> scores(3);
    std::vector<std::vector<int>> labels(3);
    Eigen::VectorXd all(0);
    std::vector<int> all_labels;
    for (int k = 0; k < 3; ++k) {
      const int n = 4 + 3 * k + trial % 5;
      scores[static_cast<std::size_t>(k)].resize(n);
      for (int i = 0; i < n; ++i) {
        scores[static_cast<std::size_t>(k)][i] = std::round(4.0 * normal(rng)) / 4.0 + 0.3 * k;
        labels[static_cast<std::size_t>(k)].push_back(coin(rng) ? 1 : 0);
      }
      all.conservativeResize(all.size() + n);
      all.tail(n) = scores[static_cast<std::size_t>(k)];
      all_labels.insert(all_labels.end(), labels[static_cast<std::size_t>(k)].begin(),
                        labels[static_cast<std::size_t>(k)].end());
    }
    const ThresholdChoice pooled = best_pooled_threshold({&scores[0], &scores[1], &scores[2]},
                                                         {&labels[0], &labels[1], &labels[2]});
    const ThresholdChoice expected = brute_force_threshold(all, all_labels, 1.0);
    CHECK(pooled.threshold == expected.threshold);
    CHECK(pooled.counts == expected.counts);
    CHECK(pooled.f == expected.f);
  }
  CHECK_THROWS_AS(best_pooled_threshold({}, {nullptr}), Error);
}
