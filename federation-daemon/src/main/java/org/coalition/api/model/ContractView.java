package org.coalition.api.model;

/**
 * One of the site's capacity contracts ({@code GET /v1/contracts}; docs/decisions/0020): its id,
 * its slot (ISO-8601, UTC), the block type, whether this site buys or sells, the other party, the
 * price this site pays or is paid in credit (core-seconds), the holding fee the buyer pays the
 * seller when the slot opens (the prepaid share of the sell price), the phase each party has it in
 * ({@code CLEARED} before its acknowledgement; {@code ACKNOWLEDGED}, {@code OPEN}, {@code SETTLED},
 * {@code BROKEN}, {@code LAPSED}), and the seller's reservation once the slot is open.
 */
public record ContractView(String id, String slotStart, String slotEnd, String blockType, String side, String counterparty, double price,
    double holdingFee, String phase, String counterpartyPhase, String reservation) {}
