package org.coalition.policy.contracts;

import java.util.Objects;

/**
 * What a cleared pair agrees: the buyer gets one block of {@code blockType} of the seller's in
 * the slot starting at {@code slotStart}, paying {@code buyPrice}; the seller receives
 * {@code sellPrice} (McAfee's second case makes them differ). The contract paper's six attributes
 * without the server list, which the seller's reservation names when it is handed over.
 */
public record ContractTerms(String buyer, String seller, long slotStart, String blockType, double buyPrice, double sellPrice) {
  public ContractTerms {
    Objects.requireNonNull(buyer, "buyer");
    Objects.requireNonNull(seller, "seller");
    Objects.requireNonNull(blockType, "blockType");
    if (buyer.equals(seller)) {
      throw new IllegalArgumentException("a contract needs two sites, both were " + buyer);
    }
    if (!(sellPrice >= 0) || !(buyPrice >= sellPrice) || Double.isInfinite(buyPrice)) {
      throw new IllegalArgumentException("contract " + buyer + " <- " + seller + ": need 0 <= sell price <= buy price, were "
          + sellPrice + ", " + buyPrice);
    }
  }

  /** The contract's name, the same on every member: slot, type, seller, buyer. */
  public String id() {
    return slotStart + "-" + blockType + "-" + seller + "-" + buyer;
  }
}
