// Linear-chain CRF: objective, gradient and training (baselines/crf.hpp).
#include "baselines/crf.hpp"

#include "lib/base/error.hpp"

namespace mpg {

CrfObjective::CrfObjective(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout, double lambda)
    : sentences_(sentences), layout_(layout), lambda_(lambda) {
  if (!(lambda >= 0.0)) throw Error("CRF: lambda must be >= 0");
  empirical_counts_ = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout_.size()));
  for (const auto& sentence : sentences_) {
    for (int label : sentence.labels)
      if (label < 0 || label >= layout_.labels) throw Error("CRF: label outside 0..m-1");
    add_feature_counts(sentence, sentence.labels, 1.0, layout_, empirical_counts_);
  }
}

double CrfObjective::evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
  const int m = layout_.labels;
  gradient = lambda_ * theta - empirical_counts_;
  double value = 0.5 * lambda_ * theta.squaredNorm() - theta.dot(empirical_counts_);
  for (const auto& sentence : sentences_) {
    const ChainMarginals marginals = chain_marginals(chain_scores(sentence, theta, layout_));
    value += marginals.log_z;
    // Expected counts: P(y_t = c) for each feature of x_t, and the expected transitions.
    for (std::size_t t = 0; t < sentence.size(); ++t)
      for (std::uint32_t f : sentence.features[t])
        for (int c = 0; c < m; ++c)
          gradient[static_cast<Eigen::Index>(layout_.unary_index(f, c))] +=
              marginals.unary(static_cast<Eigen::Index>(t), c);
    for (int a = 0; a <= m; ++a)
      for (int c = 0; c < m; ++c)
        gradient[static_cast<Eigen::Index>(layout_.transition_index(a, c))] += marginals.transition(a, c);
  }
  return value;
}

CrfModel train_crf(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout, const CrfOptions& options) {
  CrfObjective objective(sentences, layout, options.lambda);
  CrfModel model;
  model.layout = layout;
  model.theta = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout.size()));
  OptimizerOptions optimizer;
  optimizer.kind = OptimizerKind::lbfgs;
  optimizer.max_iterations = options.max_iterations;
  optimizer.gradient_tolerance = options.gradient_tolerance;
  model.summary = minimize(objective, model.theta, optimizer);
  return model;
}

}  // namespace mpg
