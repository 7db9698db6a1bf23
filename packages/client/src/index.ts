/**
 * @x/client: the typed SDK. Its methods arrive with the next release; this entry exports
 * nothing yet.
 */
export {};
