/**
 * The daemon's market desk (docs/decisions/0020-capacity-contracts.md): it seals the site's bids
 * for the day-ahead capacity market before the gate, reveals them after it, and once the reveals
 * close acknowledges the site's contracts (or holds them for its admin) and publishes the leader's
 * clearing. Its only file is the day's bids with their nonces ({@link org.coalition.daemon.market.BidBook}).
 */
package org.coalition.daemon.market;
