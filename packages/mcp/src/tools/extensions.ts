import { z } from 'zod';
import { defined, jsonResult, listResult, refuseOthers, required } from '../results.js';
import { defineTool } from '../tool.js';

const ACTIONS = ['list', 'delete'] as const;

/** `manage_extensions`: the browser extensions uploaded to the service. */
export const manageExtensions = defineTool({
  name: 'manage_extensions',
  title: 'Manage extensions',
  description: [
    'Chrome extensions uploaded to the service (with `xb extensions upload` or the API), which a browser or pool loads by id or name (manage_browsers create with extensions: [{ name }]).',
    '- list: one page of extensions (`query` matches names and ids, `limit`, `offset`), with their size and when a browser last loaded them; says when more follow.',
    '- delete: removes `extension` (id or name) for good; browsers that loaded it keep it until they end.',
  ].join('\n'),
  projectScoped: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  input: {
    action: z.enum(ACTIONS).describe('what to do: list or delete'),
    extension: z.string().optional().describe('delete: the extension, by id or name'),
    query: z.string().optional().describe('list: only extensions whose name or id contains this'),
    limit: z.number().int().optional().describe('list: records per page, 1–100, default 20'),
    offset: z.number().int().optional().describe('list: records to skip'),
  },
  async run(args, { client, call, maxTextChars }) {
    const { action, extension, query, limit, offset } = args;
    switch (action) {
      case 'list':
        refuseOthers({ extension }, action);
        return listResult(
          await client.extensions.list(defined({ query, limit, offset }), call),
          maxTextChars,
        );
      case 'delete': {
        refuseOthers({ query, limit, offset }, action);
        const id_or_name = required(args, 'extension', action);
        await client.extensions.delete({ id_or_name }, call);
        return jsonResult({ deleted: id_or_name }, maxTextChars);
      }
    }
  },
});
