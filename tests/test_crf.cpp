// Linear-chain CRF: log Z, marginals and Viterbi against enumeration of all m^T sequences, the
// objective's gradient against finite differences, and training on a toy problem.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "baselines/crf.hpp"
#include "lib/structures/linear_chain.hpp"
#include "tests/chains.hpp"

namespace {

using mpg::testing::all_sequences;
using mpg::testing::random_chain;

// A toy data set: 3 features, labels follow feature 0/1 and a transition habit.
std::vector<mpg::FeaturizedSentence> toy_sentences(std::mt19937& rng, std::size_t count) {
  std::vector<mpg::FeaturizedSentence> out;
  std::uniform_int_distribution<int> label(0, 2);
  std::uniform_int_distribution<std::size_t> length(1, 5);
  for (std::size_t i = 0; i < count; ++i) {
    mpg::FeaturizedSentence s;
    const std::size_t T = length(rng);
    for (std::size_t t = 0; t < T; ++t) {
      const int y = label(rng);
      s.labels.push_back(y);
      s.features.push_back({static_cast<std::uint32_t>(y), 3});  // feature y and a bias 3
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("log Z, marginals and Viterbi equal enumeration on short chains", "[crf]") {
  std::mt19937 rng(7);
  for (int m : {2, 3}) {
    for (std::size_t T : {1u, 2u, 4u, 5u}) {
      const mpg::ChainScores s = random_chain(m, T, 2.0, rng);
      const auto sequences = all_sequences(m, T);
      double z = 0.0;
      double best = -1e300;
      std::vector<int> argmax;
      Eigen::MatrixXd unary = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(T), m);
      Eigen::MatrixXd transition = Eigen::MatrixXd::Zero(m + 1, m);
      for (const auto& y : sequences) {
        const double score = mpg::sequence_score(s, y);
        z += std::exp(score);
        if (score > best) {
          best = score;
          argmax = y;
        }
      }
      for (const auto& y : sequences) {
        const double p = std::exp(mpg::sequence_score(s, y)) / z;
        int previous = m;
        for (std::size_t t = 0; t < T; ++t) {
          unary(static_cast<Eigen::Index>(t), y[t]) += p;
          transition(previous, y[t]) += p;
          previous = y[t];
        }
      }
      CHECK(mpg::log_partition(s) == Approx(std::log(z)).epsilon(1e-12));
      const mpg::ChainMarginals marginals = mpg::chain_marginals(s);
      CHECK(marginals.log_z == Approx(std::log(z)).epsilon(1e-12));
      CHECK((marginals.unary - unary).cwiseAbs().maxCoeff() < 1e-12);
      CHECK((marginals.transition - transition).cwiseAbs().maxCoeff() < 1e-12);
      CHECK(mpg::viterbi(s) == argmax);
    }
  }
}

TEST_CASE("the CRF objective's gradient matches finite differences", "[crf]") {
  std::mt19937 rng(11);
  const auto sentences = toy_sentences(rng, 6);
  const mpg::ChainLayout layout{4, 3};
  mpg::CrfObjective objective(sentences, layout, 0.3);
  Eigen::VectorXd theta(static_cast<Eigen::Index>(layout.size()));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (Eigen::Index i = 0; i < theta.size(); ++i) theta[i] = u(rng);
  Eigen::VectorXd gradient(theta.size());
  objective.evaluate(theta, gradient);
  Eigen::VectorXd scratch(theta.size());
  const double h = 1e-6;
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    Eigen::VectorXd plus = theta, minus = theta;
    plus[i] += h;
    minus[i] -= h;
    const double numeric = (objective.evaluate(plus, scratch) - objective.evaluate(minus, scratch)) / (2 * h);
    CHECK(gradient[i] == Approx(numeric).margin(1e-6));
  }
}

TEST_CASE("the CRF objective at theta = 0 is the uniform log-likelihood", "[crf]") {
  std::mt19937 rng(3);
  const auto sentences = toy_sentences(rng, 5);
  const mpg::ChainLayout layout{4, 3};
  mpg::CrfObjective objective(sentences, layout, 1.0);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout.size()));
  Eigen::VectorXd gradient(theta.size());
  double tokens = 0;
  for (const auto& s : sentences) tokens += static_cast<double>(s.size());
  CHECK(objective.evaluate(theta, gradient) == Approx(tokens * std::log(3.0)));
}

TEST_CASE("a trained CRF labels its separable toy data correctly", "[crf]") {
  std::mt19937 rng(5);
  const auto sentences = toy_sentences(rng, 30);
  mpg::CrfOptions options;
  options.lambda = 0.1;
  const mpg::CrfModel model = mpg::train_crf(sentences, mpg::ChainLayout{4, 3}, options);
  for (const auto& s : sentences) CHECK(model.predict(s) == s.labels);
  CHECK(model.summary.final_value < model.summary.initial_value);
}
