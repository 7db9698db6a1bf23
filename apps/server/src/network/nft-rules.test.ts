import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findSystemTools } from '../system/executables.js';
import { type PolicyLayout, type SessionLink, sessionRules, tableRules } from './nft-rules.js';

const tools = findSystemTools();
const canUseNft = process.getuid?.() === 0 && tools.nft !== undefined;

function nft(args: string[], input?: string): string {
  const result = spawnSync(tools.nft as string, args, { input, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`nft ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

describe.skipIf(!canUseNft)('a session’s nftables rules, on the host’s nftables', () => {
  it('replace whatever its slot held: rules a failed removal left are never the next session’s', () => {
    const tag = randomBytes(4).toString('hex');
    const layout: PolicyLayout = {
      table: `xb_test_${tag}`,
      interfacePrefix: `xt${tag.slice(0, 4)}`,
      subnet: '10.250.0.0/16',
      hostLoopback: '10.250.255.254',
      dropOtherForwarding: false,
    };
    const link: SessionLink = {
      slot: 7,
      hostInterface: `xt${tag.slice(0, 4)}7`,
      gateway: '10.250.0.29',
      address: '10.250.0.30',
    };
    nft(['-f', '-'], tableRules(layout));
    try {
      nft(['-f', '-'], sessionRules(layout, link, [{ address: 0x0a090909, prefix: 32 }]));
      expect(nft(['list', 'chain', 'inet', layout.table, 's7_forward'])).toContain('10.9.9.9');
      // The next session on the slot, its forerunner's rules never removed: only its own hold.
      nft(['-f', '-'], sessionRules(layout, link, []));
      const forward = nft(['list', 'chain', 'inet', layout.table, 's7_forward']);
      expect(forward).not.toContain('10.9.9.9');
      expect(forward.match(/accept/g)).toHaveLength(1);
      expect(nft(['list', 'chain', 'inet', layout.table, 's7_input']).match(/jump/g)).toHaveLength(
        1,
      );
    } finally {
      nft(['delete', 'table', 'inet', layout.table]);
    }
  });
});
