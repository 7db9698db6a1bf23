import * as samples from '../../test-support/samples.js';
import { type MethodCase, ok } from './method-case.js';

/** One realistic call of every operation of `files`. */
export const cases: Record<string, MethodCase> = {
  'browsers.fs.listFiles': {
    input: { id: 'br_1', path: '/home/browser/Downloads' },
    method: 'GET',
    url: '/browsers/br_1/fs/list_files?path=%2Fhome%2Fbrowser%2FDownloads',
    respond: ok([samples.fileEntry]),
    result: [samples.fileEntry],
  },
  'browsers.fs.fileInfo': {
    input: { id: 'br_1', path: '/home/browser/Downloads/report.pdf' },
    method: 'GET',
    url: '/browsers/br_1/fs/file_info?path=%2Fhome%2Fbrowser%2FDownloads%2Freport.pdf',
    respond: ok(samples.fileEntry),
    result: samples.fileEntry,
  },
  'browsers.fs.createDirectory': {
    input: { id: 'br_1', path: '/home/browser/a/b', mode: '700' },
    method: 'PUT',
    url: '/browsers/br_1/fs/create_directory',
    body: { path: '/home/browser/a/b', mode: '700' },
    respond: { status: 201 },
    result: undefined,
  },
  'browsers.fs.deleteFile': {
    input: { id: 'br_1', path: '/home/browser/a.txt' },
    method: 'PUT',
    url: '/browsers/br_1/fs/delete_file',
    body: { path: '/home/browser/a.txt' },
    respond: { status: 200 },
    result: undefined,
  },
  'browsers.fs.deleteDirectory': {
    input: { id: 'br_1', path: '/home/browser/a' },
    method: 'PUT',
    url: '/browsers/br_1/fs/delete_directory',
    body: { path: '/home/browser/a' },
    respond: { status: 200 },
    result: undefined,
  },
  'browsers.fs.move': {
    input: { id: 'br_1', src_path: '/home/browser/a', dest_path: '/home/browser/b' },
    method: 'PUT',
    url: '/browsers/br_1/fs/move',
    body: { src_path: '/home/browser/a', dest_path: '/home/browser/b' },
    respond: { status: 200 },
    result: undefined,
  },
  'browsers.fs.setFilePermissions': {
    input: { id: 'br_1', path: '/home/browser/a', mode: '0600', owner: 'browser' },
    method: 'PUT',
    url: '/browsers/br_1/fs/set_file_permissions',
    body: { path: '/home/browser/a', mode: '0600', owner: 'browser' },
    respond: { status: 200 },
    result: undefined,
  },
};
