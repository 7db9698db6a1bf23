import { X509Certificate } from 'node:crypto';
import { copyFileSync, lchownSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeSandboxFile } from '../system/sandbox-files.js';
import { runTool } from '../system/tool-runner.js';
import type { SandboxUser } from './bubblewrap.js';

/**
 * The certificate authorities sessions trust besides the public ones (`XB_SESSION_CA_FILE`): a
 * company's own CA, the CA of a TLS-inspecting network, a test CA. Browsers trust them through
 * an NSS database in their home (where Chromium on Linux keeps the user's trusted certificates),
 * made once at start with `certutil` and copied into each browser's home; Node in a deployment's
 * sandbox (its code and its npm install) through `NODE_EXTRA_CA_CERTS`, the file bound read-only.
 */

/**
 * Where a browser's NSS database is, relative to its home: the classic place, which every
 * Chromium reads (since M146 the default for a new one is `.local/share/pki/nssdb`, but one found
 * here is used instead).
 */
export const NSS_FOLDER = '.pki/nssdb';

/** The files of an NSS database (sql format). */
const NSS_FILES = ['cert9.db', 'key4.db', 'pkcs11.txt'] as const;

/** The PEM blocks of `text`, each a certificate. */
export function certificatesOf(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/**
 * Reads and checks the file: one or more PEM certificates, each a CA. Throws a sentence naming
 * the setting otherwise.
 */
export function readCaFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `XB_SESSION_CA_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const blocks = certificatesOf(text);
  if (blocks.length === 0) throw new Error(`XB_SESSION_CA_FILE: ${path} holds no PEM certificate`);
  for (const block of blocks) {
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(block);
    } catch (error) {
      throw new Error(
        `XB_SESSION_CA_FILE: ${path} holds a certificate that does not parse (${(error as Error).message})`,
      );
    }
    if (!certificate.ca)
      throw new Error(
        `XB_SESSION_CA_FILE: ${path} holds a certificate that is not a CA (${certificate.subject.replace(/\n/g, ', ')}): name the authority that issues the sites' certificates`,
      );
  }
  return blocks;
}

export class SessionTrust {
  readonly #template: string;
  /** The authorities, a copy readable by every sandbox (bound read-only into app sandboxes). */
  readonly caFile: string;
  /** How many authorities it holds. */
  readonly count: number;

  private constructor(template: string, caFile: string, count: number) {
    this.#template = template;
    this.caFile = caFile;
    this.count = count;
  }

  /**
   * Makes the NSS database browsers copy (in the data directory's `trust` folder), with every
   * CA of `caFile` trusted to identify sites.
   */
  static async prepare(
    caFile: string,
    dataDir: string,
    certutil: string | undefined,
    /** The server's own `NODE_EXTRA_CA_CERTS`, which its npm installs trusted before: kept. */
    nodeExtra: string | undefined = process.env.NODE_EXTRA_CA_CERTS,
  ): Promise<SessionTrust> {
    const blocks = readCaFile(caFile);
    if (!certutil)
      throw new Error(
        'XB_SESSION_CA_FILE needs certutil to hand the authorities to the browsers (apt-get install libnss3-tools)',
      );
    const template = join(dataDir, 'trust', 'nssdb');
    rmSync(join(dataDir, 'trust'), { recursive: true, force: true });
    mkdirSync(template, { recursive: true, mode: 0o700 });
    await runTool(certutil, ['-N', '-d', `sql:${template}`, '--empty-password'], {
      timeoutMs: 30_000,
    });
    for (const [index, block] of blocks.entries())
      await runTool(
        certutil,
        ['-A', '-d', `sql:${template}`, '-n', `xb-session-ca-${index + 1}`, '-t', 'C,,', '-a'],
        { input: `${block}\n`, timeoutMs: 30_000 },
      );
    // Node in a deployment's sandbox takes one file (NODE_EXTRA_CA_CERTS): these authorities and
    // those the server's own Node was given, so an install through a registry mirror still works.
    let kept: string[] = [];
    try {
      kept = nodeExtra ? certificatesOf(readFileSync(nodeExtra, 'utf8')) : [];
    } catch {
      // Not readable: the operator's setting, not ours to refuse.
    }
    const copy = join(dataDir, 'trust', 'ca.pem');
    writeSandboxFile(copy, `${[...blocks, ...kept].join('\n')}\n`);
    return new SessionTrust(template, copy, blocks.length);
  }

  /** Gives a browser's home (`home`, owned by `user` when there is one) the database. */
  furnish(home: string, user: SandboxUser | undefined): void {
    const parts = NSS_FOLDER.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      const folder = join(home, ...parts.slice(0, depth));
      mkdirSync(folder, { recursive: false, mode: 0o700 });
      if (user) lchownSync(folder, user.uid, user.gid);
    }
    const target = join(home, NSS_FOLDER);
    for (const name of NSS_FILES) {
      copyFileSync(join(this.#template, name), join(target, name));
      if (user) lchownSync(join(target, name), user.uid, user.gid);
    }
  }
}
