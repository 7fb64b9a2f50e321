/**
 * What a job is, in the words both sides of the federation use: the records of {@code
 * coordination} carry them between sites, and every batch system's handler ({@code handler-api})
 * turns them into its own requests. Values only, bounded in their constructors, so that a peer's
 * record is checked where it is read; nothing here does I/O or knows of ZooKeeper or a batch system.
 */
package org.coalition.job;
