/**
 * A job's files on their trip (issue #24, docs/jobs.md "Files"): the inputs a script declares,
 * packed at home as the job's user; the tars they travel in, checked entry by entry; and the
 * files a run wrote, packed at the executor as the account it ran as.
 */
package org.coalition.staging;
