/**
 * The capacity contracts what-if (docs/decisions/0020): sites replaying one SWF log shifted by
 * time zone, alone, in a global pool, and trading hours of capacity a day ahead.
 */
package org.coalition.simulator.contracts;
