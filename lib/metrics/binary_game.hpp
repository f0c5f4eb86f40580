// Common part of binary multivariate games over n examples with additive features
// Phi(x, y) = sum_i y_i x_i, so that psi(y_check) = sum_{i: y_check_i = 1} psi_i with
// psi_i = theta . x_i (thesis §2.2).
#pragma once

#include <string>
#include <vector>

#include "lib/game/binary_action.hpp"
#include "lib/game/game.hpp"

namespace mpg {

class BinaryGame : public Game<BinaryAction> {
 public:
  // Throws mpg::Error if potentials is empty or holds a non-finite value.
  explicit BinaryGame(std::vector<double> potentials);

  std::size_t size() const { return potentials_.size(); }
  const std::vector<double>& potentials() const { return potentials_; }
  double potential(const BinaryAction& adversary_action) const override {
    return sum_over(adversary_action, potentials_);
  }
  // E_Q[psi(Y)] over a mixed strategy.
  double expected_potential(const MixedStrategy<BinaryAction>& strategy) const;

 protected:
  bool is_action(const BinaryAction& action) const;  // sorted, distinct, within [0, n)

 private:
  std::vector<double> potentials_;
};

}  // namespace mpg
