/** Pure scheduling algorithms: DirectContr utilities, FairShare, RoundRobin, BILB, averaging load balancing, participation learning, expected-delay cost, Shapley value and unfairness, McAfee double auction, contract-aware placement. No I/O; time comes from an injected clock. */
package org.coalition.policy;
