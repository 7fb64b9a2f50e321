/** Text shared by every module that shows numbers to people. */
package org.coalition.policy.text;
