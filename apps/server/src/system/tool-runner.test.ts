import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { childrenOf } from './process-tree.js';
import { runTool, ToolFailed } from './tool-runner.js';

/** The tool runner's process: the child of this one that runs `node -e`. */
function helperPid(): number | undefined {
  return childrenOf(process.pid).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('-e');
    } catch {
      return false;
    }
  });
}

/** Handles that keep this process's event loop alive (a running child, its pipes). */
const processHandles = () =>
  process.getActiveResourcesInfo().filter((name) => name === 'ProcessWrap' || name === 'PipeWrap')
    .length;

describe('runTool', () => {
  it('runs a program with its input and resolves with what it printed', async () => {
    const { stdout, stderr } = await runTool('/bin/cat', [], { input: 'a line\n' });
    expect(stdout).toBe('a line\n');
    expect(stderr).toBe('');
    const listed = await runTool('/bin/echo', ['-n', 'one', 'two']);
    expect(listed.stdout).toBe('one two');
  });

  it('runs it with the system PATH only, in the C locale', async () => {
    const { stdout } = await runTool('/usr/bin/env', []);
    expect(stdout.trim().split('\n')).toEqual(['PATH=/usr/sbin:/usr/bin:/sbin:/bin']);
  });

  it('rejects a program that fails with its status and its words', async () => {
    const failed = await runTool('/bin/sh', ['-c', 'echo half; echo it broke >&2; exit 3']).catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(ToolFailed);
    expect(failed).toMatchObject({ code: 3, stdout: 'half\n', stderr: 'it broke\n' });
    expect((failed as Error).message).toBe(
      '/bin/sh -c echo half; echo it broke >&2; exit 3: it broke',
    );
  });

  it('rejects a program that is not there', async () => {
    await expect(runTool('/nonexistent/tool', ['x'])).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('kills a program past its time', async () => {
    const started = performance.now();
    const failed = await runTool('/bin/sleep', ['10'], { timeoutMs: 100 }).catch(
      (error: unknown) => error as ToolFailed,
    );
    expect(failed).toMatchObject({ signal: 'SIGTERM', code: undefined });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('kills a program that prints without end, and says only how it ended', async () => {
    const failed = (await runTool('/bin/sh', ['-c', 'exec cat /dev/zero']).catch(
      (error: unknown) => error,
    )) as ToolFailed;
    expect(failed).toBeInstanceOf(ToolFailed);
    expect(failed.code).toBe('ERR_CHILD_PROCESS_STDIO_MAXBUFFER');
    expect(failed.stdout.length).toBeLessThanOrEqual(65_536);
  });

  it('fails what was running when its process ends, and starts another for the next', async () => {
    await runTool('/bin/true', []);
    const first = helperPid();
    expect(first).toBeDefined();
    const running = runTool('/bin/sleep', ['10']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(first as number, 'SIGKILL');
    await expect(running).rejects.toMatchObject({ code: 'EHELPER' });
    expect((await runTool('/bin/echo', ['again'])).stdout).toBe('again\n');
    const second = helperPid();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });

  it('keeps the process alive only while a program runs', async () => {
    await runTool('/bin/true', []);
    const idle = processHandles();
    const running = runTool('/bin/sleep', ['0.2']);
    expect(processHandles()).toBeGreaterThan(idle);
    await running;
    expect(processHandles()).toBe(idle);
  });
});
