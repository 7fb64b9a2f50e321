package org.coalition.api.model;

import java.util.List;

/** The federation: its leader, the BILB period and every site ({@code GET /v1/sites}). */
public record Federation(String leader, long period, List<SiteView> sites) {}
