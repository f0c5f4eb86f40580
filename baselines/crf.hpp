// Linear-chain CRF baseline of thesis Table X (§2.3, Eqs. 2.7-2.14), L2-regularized:
//     f(theta)  = sum_i [ log Z(x_i, theta) - theta . Phi(x_i, y_i) ] + lambda/2 ||theta||^2   (Eq. 2.11)
//     grad f    = sum_i [ E_{p(y|x_i)} Phi(x_i, y) - Phi(x_i, y_i) ] + lambda theta           (Eqs. 2.12-2.13)
// with unigram (feature x label) and label-bigram (with START) features (lib/structures/linear_chain.hpp),
// minimized by L-BFGS (liblbfgs through mpg::minimize) from theta = 0; prediction by Viterbi.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "lib/learn/optimizer.hpp"
#include "lib/structures/linear_chain.hpp"

namespace mpg {

class CrfObjective : public Objective {
 public:
  // Keeps a reference to `sentences`. Throws mpg::Error for lambda < 0 or labels outside 0..m-1.
  CrfObjective(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout, double lambda);
  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) override;
  const ChainLayout& layout() const { return layout_; }

 private:
  const std::vector<FeaturizedSentence>& sentences_;
  ChainLayout layout_;
  double lambda_;
  Eigen::VectorXd empirical_counts_;  // sum_i Phi(x_i, y_i)
};

struct CrfOptions {
  double lambda = 1.0;
  int max_iterations = 300;
  double gradient_tolerance = 1e-5;
};

struct CrfModel {
  ChainLayout layout;
  Eigen::VectorXd theta;
  OptimizerSummary summary;
  std::vector<int> predict(const FeaturizedSentence& sentence) const {
    return viterbi(chain_scores(sentence, theta, layout));
  }
};

CrfModel train_crf(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout, const CrfOptions& options);

}  // namespace mpg
