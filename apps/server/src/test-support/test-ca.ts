import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A certificate authority of a test's own (openssl, as an operator makes an internal one) and a
 * certificate it issued for `names`: what a site of the test's small internet serves, and what
 * the server is told to trust (`XB_SESSION_CA_FILE`), as it would be told of a company's CA.
 */
export interface TestCa {
  /** The CA's certificate (PEM file). */
  readonly caFile: string;
  /** The site's certificate and key (PEM). */
  readonly cert: string;
  readonly key: string;
  remove(): void;
}

export function makeTestCa(names: readonly string[]): TestCa {
  const folder = mkdtempSync(join(tmpdir(), 'xb-test-ca-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    const at = (name: string) => join(folder, name);
    // A new P-256 key and a request for it (self-signed with -x509: the CA).
    const request = (key: string, out: string, subject: string, ...extra: string[]) =>
      openssl(
        'req',
        ...extra,
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        at(key),
        '-out',
        at(out),
        '-subj',
        subject,
      );
    request(
      'ca.key',
      'ca.pem',
      '/CN=xb test CA',
      '-x509',
      '-days',
      '2',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    request('site.key', 'site.csr', `/CN=${names[0]}`);
    writeFileSync(
      at('site.ext'),
      `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
    );
    openssl(
      'x509',
      '-req',
      '-in',
      at('site.csr'),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-out',
      at('site.pem'),
      '-days',
      '2',
      '-extfile',
      at('site.ext'),
    );
    return {
      caFile: at('ca.pem'),
      cert: readFileSync(at('site.pem'), 'utf8'),
      key: readFileSync(at('site.key'), 'utf8'),
      remove: () => rmSync(folder, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}
