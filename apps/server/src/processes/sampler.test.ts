import { spawn } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ProcessSampler } from './sampler.js';

describe('ProcessSampler', () => {
  it("measures a tracked tree's cpu and memory, its grandchildren included", async () => {
    // The busy loop runs in a grandchild: the leader itself only waits.
    const leader = spawn('sh', ['-c', 'sh -c "while :; do :; done" & wait'], { detached: true });
    onTestFinished(() => {
      process.kill(-(leader.pid as number), 'SIGKILL');
    });
    const sampler = new ProcessSampler();
    sampler.track(leader.pid as number);
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    const usage = sampler.usage(leader.pid as number);
    expect(usage.cpuPct).toBeGreaterThan(20);
    expect(usage.memBytes).toBeGreaterThan(100_000);
    sampler.forget(leader.pid as number);
    expect(sampler.usage(leader.pid as number)).toEqual({ cpuPct: 0, memBytes: 0 });
  });

  it('reads nothing while nothing is tracked, and a gone process reads 0', async () => {
    const sampler = new ProcessSampler();
    sampler.track(2 ** 22 + 1); // No such pid.
    sampler.sample();
    expect(sampler.usage(2 ** 22 + 1)).toEqual({ cpuPct: 0, memBytes: 0 });
    sampler.forget(2 ** 22 + 1);
  });
});
