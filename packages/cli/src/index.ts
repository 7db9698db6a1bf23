/**
 * @x/cli: the `xb` command line. The commands arrive with the next release; this entry exports
 * nothing yet.
 */
export {};
