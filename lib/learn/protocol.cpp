#include "lib/learn/protocol.hpp"

#include "lib/base/error.hpp"

namespace mpg {

DoubleOracleOptions authors_game_options(DoubleOracleOptions options, const AuthorsGameRule& rule) {
  options.stop_rule = DoubleOracleOptions::StopRule::value_repeat;
  options.value_precision = rule.value_precision;
  options.tolerance = rule.value_precision;
  options.max_actions = rule.max_actions;
  options.max_iterations = 0;
  return options;
}

OptimizerOptions authors_optimizer_options(TrainingProtocol protocol) {
  OptimizerOptions options;
  options.max_iterations = 200;
  switch (protocol) {
    case TrainingProtocol::authors_lbfgs:
      // Riso L-BFGS in the reference: m = 5, eps = 1e-6, at most 200 evaluations.
      options.kind = OptimizerKind::lbfgs;
      options.lbfgs_memory = 5;
      options.gradient_tolerance = 1e-6;
      options.past = 0;  // no value test (Riso's L-BFGS has none)
      options.max_evaluations = 200;
      options.lbfgs_more_thuente = true;
      return options;
    case TrainingProtocol::authors_adadelta:
      options.kind = OptimizerKind::adadelta;
      options.adadelta_rho = 0.95;
      options.adadelta_epsilon = 0.00247875217;  // e^-6
      options.adadelta_value_tolerance = 1e-4;
      options.adadelta_step_tolerance = 1e-6;
      options.adadelta_reference_tests = true;
      options.return_last_iterate = true;
      return options;
    case TrainingProtocol::certified:
      break;
  }
  throw Error("authors_optimizer_options: the certified protocol has no authors' optimizer");
}

}  // namespace mpg
