/**
 * How much foreign work each site takes or sends each period: BILB (bounded iterative load
 * balancing) and the averaging baseline, participation-level learning, and the expected-delay
 * cost that explains a site's risk in accepting foreign load.
 */
package org.coalition.policy.balancing;
