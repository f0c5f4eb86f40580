#include "lib/binary_action.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "lib/error.hpp"

namespace mpg {

std::size_t intersection_size(const BinaryAction& a, const BinaryAction& b) {
  std::size_t count = 0;
  auto ia = a.begin();
  auto ib = b.begin();
  while (ia != a.end() && ib != b.end()) {
    if (*ia < *ib) {
      ++ia;
    } else if (*ib < *ia) {
      ++ib;
    } else {
      ++count;
      ++ia;
      ++ib;
    }
  }
  return count;
}

std::string to_bitstring(const BinaryAction& action, std::size_t n) {
  std::string bits(n, '0');
  for (auto i : action) bits[i] = '1';
  return bits;
}

BinaryAction from_bitstring(const std::string& bits) {
  BinaryAction action;
  for (std::size_t i = 0; i < bits.size(); ++i) {
    if (bits[i] == '1') {
      action.push_back(static_cast<std::uint32_t>(i));
    } else if (bits[i] != '0') {
      throw Error("action '" + bits + "' must consist of 0 and 1 only");
    }
  }
  return action;
}

BinaryAction all_zeros() { return {}; }

BinaryAction all_ones(std::size_t n) { return first_k(n); }

BinaryAction first_k(std::size_t k) {
  BinaryAction action(k);
  std::iota(action.begin(), action.end(), 0u);
  return action;
}

BinaryAction last_k(std::size_t n, std::size_t k) {
  BinaryAction action(k);
  std::iota(action.begin(), action.end(), static_cast<std::uint32_t>(n - k));
  return action;
}

BinaryAction positives_of(const std::vector<int>& labels) {
  BinaryAction action;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == 1) action.push_back(static_cast<std::uint32_t>(i));
  return action;
}

Eigen::VectorXd binary_marginals(const MixedStrategy<BinaryAction>& strategy, std::size_t n) {
  Eigen::VectorXd marginals = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n));
  for (std::size_t j = 0; j < strategy.size(); ++j)
    for (auto i : strategy.actions[j]) marginals[i] += strategy.probabilities[j];
  return marginals;
}

std::vector<std::size_t> distinct_sizes(const MixedStrategy<BinaryAction>& strategy) {
  std::vector<std::size_t> sizes;
  for (const auto& a : strategy.actions)
    if (!a.empty()) sizes.push_back(a.size());
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

double sum_over(const BinaryAction& action, const std::vector<double>& psi) {
  double total = 0.0;
  for (auto i : action) total += psi[i];
  return total;
}

MembershipGroups group_by_membership(const MixedStrategy<BinaryAction>& strategy, std::size_t n) {
  MembershipGroups groups;
  groups.group_of_item.assign(n, 0);
  groups.terms.emplace_back();  // group 0: items in no support action
  std::vector<std::uint32_t> refined;  // old group -> its refinement by the current action
  constexpr std::uint32_t unset = ~0u;
  for (std::size_t j = 0; j < strategy.size(); ++j) {
    const BinaryAction& action = strategy.actions[j];
    const double probability = strategy.probabilities[j];
    if (action.empty()) {
      groups.empty_action_probability += probability;
      continue;
    }
    const double size = static_cast<double>(action.size());
    refined.assign(groups.terms.size(), unset);
    for (auto i : action) {
      std::uint32_t& target = refined[groups.group_of_item[i]];
      if (target == unset) {
        target = static_cast<std::uint32_t>(groups.terms.size());
        auto terms = groups.terms[groups.group_of_item[i]];
        auto same_size = std::find_if(terms.begin(), terms.end(),
                                      [&](const auto& t) { return t.size == size; });
        if (same_size != terms.end()) {
          same_size->weight += probability;
        } else {
          terms.push_back({size, probability});
        }
        groups.terms.push_back(std::move(terms));
      }
      groups.group_of_item[i] = target;
    }
  }
  // Drop groups whose items all moved on, renumbering in order of first use.
  std::vector<std::uint32_t> renumber(groups.terms.size(), unset);
  std::vector<std::vector<MembershipGroups::Term>> kept_terms;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t& id = renumber[groups.group_of_item[i]];
    if (id == unset) {
      id = static_cast<std::uint32_t>(kept_terms.size());
      kept_terms.push_back(std::move(groups.terms[groups.group_of_item[i]]));
      groups.items.emplace_back();
    }
    groups.group_of_item[i] = id;
    groups.items[id].push_back(static_cast<std::uint32_t>(i));
  }
  groups.terms = std::move(kept_terms);
  return groups;
}

}  // namespace mpg
