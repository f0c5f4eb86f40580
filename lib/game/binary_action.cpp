#include "lib/game/binary_action.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "lib/base/error.hpp"

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

// Partition refinement without copying: each refinement of a group by an action is a node
// holding only the term it adds (size, probability) and its parent, so one action costs
// O(|action|) and the term lists are built once, for the final groups, by walking the chains.
// Weights of equal sizes are summed in action order, terms ordered by first appearance.
MembershipGroups group_by_membership(const MixedStrategy<BinaryAction>& strategy, std::size_t n) {
  struct Node {
    std::uint32_t parent;
    std::uint32_t size;
    double weight;
  };
  constexpr std::uint32_t none = ~0u;
  std::vector<Node> nodes{{none, 0, 0.0}};       // node 0: items in no support action
  std::vector<std::uint32_t> node_of_item(n, 0);
  std::vector<std::uint32_t> refined_at_action;  // per node: last action that refined it
  std::vector<std::uint32_t> refined_to;         // per node: its child for that action
  MembershipGroups groups;
  for (std::size_t j = 0; j < strategy.size(); ++j) {
    const BinaryAction& action = strategy.actions[j];
    if (action.empty()) {
      groups.empty_action_probability += strategy.probabilities[j];
      continue;
    }
    const auto stamp = static_cast<std::uint32_t>(j);
    for (auto i : action) {
      const std::uint32_t node = node_of_item[i];
      if (node >= refined_at_action.size()) {
        refined_at_action.resize(nodes.size(), none);
        refined_to.resize(nodes.size());
      }
      if (refined_at_action[node] != stamp) {
        refined_at_action[node] = stamp;
        refined_to[node] = static_cast<std::uint32_t>(nodes.size());
        nodes.push_back({node, static_cast<std::uint32_t>(action.size()), strategy.probabilities[j]});
      }
      node_of_item[i] = refined_to[node];
    }
  }
  // Final groups in order of first item; terms from the root down each chain.
  std::vector<std::uint32_t> group_of_node(nodes.size(), none);
  std::vector<std::uint32_t> chain;
  std::vector<std::uint32_t> term_of_size(n + 1, none);
  groups.group_of_item.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t& id = group_of_node[node_of_item[i]];
    if (id == none) {
      id = static_cast<std::uint32_t>(groups.terms.size());
      chain.clear();
      for (auto node = node_of_item[i]; node != 0; node = nodes[node].parent) chain.push_back(node);
      std::vector<MembershipGroups::Term> terms;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const Node& step = nodes[*it];
        if (term_of_size[step.size] == none) {
          term_of_size[step.size] = static_cast<std::uint32_t>(terms.size());
          terms.push_back({static_cast<double>(step.size), step.weight});
        } else {
          terms[term_of_size[step.size]].weight += step.weight;
        }
      }
      for (const auto& term : terms) term_of_size[static_cast<std::size_t>(term.size)] = none;
      groups.terms.push_back(std::move(terms));
      groups.items.emplace_back();
    }
    groups.group_of_item[i] = id;
    groups.items[id].push_back(static_cast<std::uint32_t>(i));
  }
  return groups;
}

}  // namespace mpg
