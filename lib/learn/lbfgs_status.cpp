#include "lib/learn/lbfgs_status.hpp"

#include <lbfgs.h>

namespace mpg {

std::string lbfgs_status_text(int status) {
  switch (status) {
    case LBFGS_SUCCESS:
      return "L-BFGS converged: gradient norm below tolerance";
    case LBFGS_STOP:
      return "L-BFGS converged: relative decrease of the objective below tolerance";
    case LBFGS_ALREADY_MINIMIZED:
      return "L-BFGS: the starting point already satisfies the gradient tolerance";
    case LBFGSERR_UNKNOWNERROR:
      return "L-BFGS: unknown error";
    case LBFGSERR_LOGICERROR:
      return "L-BFGS: logic error";
    case LBFGSERR_OUTOFMEMORY:
      return "L-BFGS: out of memory";
    case LBFGSERR_CANCELED:
      return "L-BFGS: canceled";
    case LBFGSERR_INVALID_N:
      return "L-BFGS: invalid number of variables";
    case LBFGSERR_INVALID_N_SSE:
      return "L-BFGS: invalid number of variables for the SSE build";
    case LBFGSERR_INVALID_X_SSE:
      return "L-BFGS: variables not 16-byte aligned for the SSE build";
    case LBFGSERR_INVALID_EPSILON:
      return "L-BFGS: invalid gradient tolerance (epsilon)";
    case LBFGSERR_INVALID_TESTPERIOD:
      return "L-BFGS: invalid 'past' period";
    case LBFGSERR_INVALID_DELTA:
      return "L-BFGS: invalid value tolerance (delta)";
    case LBFGSERR_INVALID_LINESEARCH:
      return "L-BFGS: invalid line search";
    case LBFGSERR_INVALID_MINSTEP:
      return "L-BFGS: invalid minimum step";
    case LBFGSERR_INVALID_MAXSTEP:
      return "L-BFGS: invalid maximum step";
    case LBFGSERR_INVALID_FTOL:
      return "L-BFGS: invalid line-search ftol";
    case LBFGSERR_INVALID_WOLFE:
      return "L-BFGS: invalid Wolfe coefficient";
    case LBFGSERR_INVALID_GTOL:
      return "L-BFGS: invalid line-search gtol";
    case LBFGSERR_INVALID_XTOL:
      return "L-BFGS: invalid line-search xtol";
    case LBFGSERR_INVALID_MAXLINESEARCH:
      return "L-BFGS: invalid maximum number of line-search evaluations";
    case LBFGSERR_INVALID_ORTHANTWISE:
      return "L-BFGS: invalid OWL-QN coefficient";
    case LBFGSERR_INVALID_ORTHANTWISE_START:
      return "L-BFGS: invalid OWL-QN start index";
    case LBFGSERR_INVALID_ORTHANTWISE_END:
      return "L-BFGS: invalid OWL-QN end index";
    case LBFGSERR_OUTOFINTERVAL:
      return "L-BFGS stopped: line-search step left the interval of uncertainty";
    case LBFGSERR_INCORRECT_TMINMAX:
      return "L-BFGS stopped: line-search interval of uncertainty became too small";
    case LBFGSERR_ROUNDING_ERROR:
      return "L-BFGS stopped: rounding errors prevent further progress in the line search "
             "(common at kinks of a non-smooth objective)";
    case LBFGSERR_MINIMUMSTEP:
      return "L-BFGS stopped: line-search step became smaller than the minimum step";
    case LBFGSERR_MAXIMUMSTEP:
      return "L-BFGS stopped: line-search step became larger than the maximum step";
    case LBFGSERR_MAXIMUMLINESEARCH:
      return "L-BFGS stopped: line search reached its maximum number of evaluations";
    case LBFGSERR_MAXIMUMITERATION:
      return "L-BFGS stopped: reached the iteration limit";
    case LBFGSERR_WIDTHTOOSMALL:
      return "L-BFGS stopped: relative width of the line-search interval below xtol";
    case LBFGSERR_INVALIDPARAMETERS:
      return "L-BFGS stopped: negative line-search step";
    case LBFGSERR_INCREASEGRADIENT:
      return "L-BFGS stopped: search direction does not decrease the objective";
    default:
      return "L-BFGS: unrecognized status code " + std::to_string(status);
  }
}

}  // namespace mpg
