import { type Browser, chromium } from 'playwright-core';

/**
 * A Chromium of its own for a person's side of the live view (the system's, as the server's
 * browsers are), headless, with nothing reaching out to the network by itself.
 */
export function launchViewer(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
