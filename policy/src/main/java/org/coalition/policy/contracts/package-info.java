/**
 * The optional contracts mode (contracts paper): a McAfee double auction per time slot and
 * resource type, and placement of work on local capacity and won contracts (ConBLF, ConBCA).
 */
package org.coalition.policy.contracts;
