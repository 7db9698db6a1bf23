import { describe, expect, it } from 'vitest';
import { logFormatOf, prettyLine } from './log-format.js';

describe('the log for a person', () => {
  it('writes a pino line as time, level, message and key=value fields, an error with its stack', () => {
    const time = Date.UTC(2026, 10, 26, 12, 4, 5);
    expect(
      prettyLine(
        JSON.stringify({
          level: 30,
          time,
          pid: 1,
          hostname: 'h',
          msg: 'listening',
          url: 'http://127.0.0.1:8080',
          maxBrowsers: 8,
        }),
        false,
      ),
    ).toBe('12:04:05 INFO  listening url=http://127.0.0.1:8080 maxBrowsers=8\n');
    const error = prettyLine(
      JSON.stringify({
        level: 50,
        time,
        msg: 'failed',
        err: { message: 'boom', stack: 'Error: boom\n    at x' },
        note: 'two words',
      }),
      true,
    );
    expect(error).toBe(
      '12:04:05 \u001b[31mERROR\u001b[0m failed err=boom note="two words"\n  Error: boom\n      at x\n',
    );
    expect(prettyLine('not json', false)).toBe('not json\n');
  });

  it('is pretty on a terminal and JSON elsewhere unless XB_LOG_FORMAT says', () => {
    expect(logFormatOf(undefined, true)).toBe('pretty');
    expect(logFormatOf(undefined, false)).toBe('json');
    expect(logFormatOf('json', true)).toBe('json');
    expect(logFormatOf('pretty', false)).toBe('pretty');
    expect(() => logFormatOf('yaml', true)).toThrow(/XB_LOG_FORMAT must be json or pretty/);
  });
});
