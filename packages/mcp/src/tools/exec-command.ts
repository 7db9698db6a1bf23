import { z } from 'zod';
import { textResult } from '../results.js';
import { defineTool, sessionIdInput } from '../tool.js';

/** `exec_command`: a command on a browser's instance, run to its end. */
export const execCommand = defineTool({
  name: 'exec_command',
  title: 'Run a command on the instance',
  description: [
    "Runs a command in the browser's own sandbox (its files under /home/browser: downloads, uploads, the profile) and waits for it to end; returns the exit code and the decoded stdout and stderr.",
    'Use it to look at or move files the browser downloaded, or to run a tool beside it. `command` is the program, `args` its arguments (no shell unless you run one: command "bash", args ["-c", "ls | wc -l"]).',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  input: {
    session_id: sessionIdInput,
    command: z.string().describe('the program to run, e.g. ls or bash'),
    args: z.array(z.string()).optional().describe('its arguments'),
    cwd: z.string().optional().describe('the directory it runs in, default /home/browser'),
    env: z.record(z.string(), z.string()).optional().describe('environment variables to add'),
    timeout_sec: z.number().int().optional().describe('seconds before it is killed'),
  },
  async run({ session_id: id, ...command }, { client, call, maxTextChars }) {
    const result = await client.browsers.process.exec(
      Object.fromEntries(
        Object.entries({ id, ...command }).filter(([, value]) => value !== undefined),
      ) as { id: string; command: string },
      call,
    );
    const decode = (base64: string | undefined) =>
      base64 ? Buffer.from(base64, 'base64').toString('utf8') : '';
    const stdout = decode(result.stdout_b64);
    const stderr = decode(result.stderr_b64);
    return textResult(
      [
        `Exit code ${result.exit_code} after ${result.duration_ms} ms.`,
        `stdout:\n${stdout || '(empty)'}`,
        ...(stderr ? [`stderr:\n${stderr}`] : []),
      ].join('\n'),
      maxTextChars,
      'narrow the output (head, grep) in the command',
    );
  },
});
