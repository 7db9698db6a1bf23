import type { BrowserInstance } from '../engines.js';
import type { HandlerGroup } from '../handler-group.js';

type Operations =
  | 'browsers.fs.readFile'
  | 'browsers.fs.writeFile'
  | 'browsers.fs.listFiles'
  | 'browsers.fs.fileInfo'
  | 'browsers.fs.createDirectory'
  | 'browsers.fs.deleteFile'
  | 'browsers.fs.deleteDirectory'
  | 'browsers.fs.move'
  | 'browsers.fs.setFilePermissions'
  | 'browsers.fs.upload'
  | 'browsers.fs.uploadZip'
  | 'browsers.fs.downloadDirZip';

const CREATED = { status: 201 } as const;
const DONE = { status: 200 } as const;

/** The files on instances over the service model. */
export function fileHandlers<I extends BrowserInstance>(): HandlerGroup<I, Operations> {
  return {
    'browsers.fs.readFile': async ({ runtime, params, query }) => {
      const { stream, size } = await runtime.files.read(params.id, query.path);
      return { status: 200, stream, length: size, contentType: 'application/octet-stream' };
    },
    'browsers.fs.writeFile': async ({ runtime, params, query, body }) => {
      await runtime.files.write(
        params.id,
        query.path,
        query.mode,
        body.content as ReadableStream<Uint8Array>,
      );
      return CREATED;
    },
    'browsers.fs.listFiles': async ({ runtime, params, query }) => ({
      status: 200,
      json: await runtime.files.list(params.id, query.path),
    }),
    'browsers.fs.fileInfo': async ({ runtime, params, query }) => ({
      status: 200,
      json: await runtime.files.info(params.id, query.path),
    }),
    'browsers.fs.createDirectory': async ({ runtime, params, body }) => {
      await runtime.files.makeDirectory(params.id, body.path, body.mode);
      return CREATED;
    },
    'browsers.fs.deleteFile': async ({ runtime, params, body }) => {
      await runtime.files.removeFile(params.id, body.path);
      return DONE;
    },
    'browsers.fs.deleteDirectory': async ({ runtime, params, body }) => {
      await runtime.files.removeDirectory(params.id, body.path);
      return DONE;
    },
    'browsers.fs.move': async ({ runtime, params, body }) => {
      await runtime.files.move(params.id, body.src_path, body.dest_path);
      return DONE;
    },
    'browsers.fs.setFilePermissions': async ({ runtime, params, body }) => {
      await runtime.files.setPermissions(params.id, body);
      return DONE;
    },
    'browsers.fs.upload': async ({ runtime, params, body }) => {
      await runtime.files.upload(params.id, body.files);
      return CREATED;
    },
    'browsers.fs.uploadZip': async ({ runtime, params, body }) => {
      await runtime.files.uploadZip(params.id, body.dest_path, body.zip_file);
      return CREATED;
    },
    'browsers.fs.downloadDirZip': async ({ runtime, params, query }) => ({
      status: 200,
      stream: await runtime.files.zip(params.id, query.path),
      contentType: 'application/zip',
    }),
  };
}
