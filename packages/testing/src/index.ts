/**
 * @x/testing: fixtures, the fake service and the contract suite. Its parts arrive with the next
 * release; this entry exports nothing yet.
 */
export {};
