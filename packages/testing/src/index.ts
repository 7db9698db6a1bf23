/**
 * @x/testing: fixtures, a stateful fake of the cloud browser service, fault injection, a journal
 * of calls, and the contract suite any implementation of the API can be checked with.
 */

export type { FsChange } from '@x/service-kernel';
export {
  createIdGenerator,
  type IdGenerator,
  type ScriptedField,
  type ScriptedSite,
  type ScriptedStep,
} from '@x/service-kernel';
export { type Clock, FIXTURE_EPOCH, steppingClock, systemClock } from './common/clock.js';
export {
  CONTRACT_APP_CODE,
  type ContractApp,
  contractAppArchive,
  deployContractApp,
} from './contract/resources.js';
export {
  type ContractCheck,
  ContractContext,
  type ContractResult,
  type ContractTarget,
  ContractViolation,
  contractChecks,
  runContractCheck,
  runContractSuite,
} from './contract/run-contract-suite.js';
export type { FakeInput } from './fake/browsers/fake-instance.js';
export type {
  FakeCurlRunner,
  FakeSite,
  FakeSiteAnswer,
  FakeSiteRequest,
} from './fake/curl/fake-curl-runner.js';
export {
  createFakeService,
  type FakePageEvent,
  type FakeSeed,
  type FakeService,
  type FakeServiceOptions,
  type ProcessUsage,
} from './fake/fake-service.js';
export type {
  FakeBrowser,
  FakeExtension,
  FakePool,
  FakeState,
  FakeWatch,
} from './fake/fake-state.js';
export type { ListenOptions } from './fake/node-listener.js';
export type {
  FakePlaywrightRunner,
  PlaywrightScript,
} from './fake/playwright/fake-playwright-runner.js';
export type { FakeProcess } from './fake/processes/fake-process.js';
export type {
  ProcessInvocation,
  ProcessScript,
  ProcessScriptSource,
} from './fake/processes/fake-process-runner.js';
export {
  dropConnection,
  errorStatus,
  type FaultEffect,
  type FaultScope,
  type InjectedFault,
  latency,
  rateLimited,
  truncateBody,
  unavailable,
} from './faults/faults.js';
export { type DeepPartial, deepMerge } from './fixtures/deep-merge.js';
export type { RecordBuilder } from './fixtures/define-builder.js';
export {
  buildExtensionArchive,
  type ExtensionArchiveOptions,
  extensionManifestFixture,
} from './fixtures/extension-archive.js';
export {
  type ConnectLoginItem,
  type ConnectVault,
  type OnePasswordConnect,
  type OnePasswordConnectOptions,
  startOnePasswordConnect,
} from './fixtures/onepassword-connect.js';
export {
  browserPoolFixture,
  browserSessionFixture,
  buildBrowserPool,
  buildBrowserSession,
  buildError,
  buildExecResult,
  buildExtension,
  buildInvocation,
  buildInvocationBrowsers,
  buildProcessOutputEvent,
  buildProcessStatus,
  buildReplay,
  buildSpawnedProcess,
  buildWatch,
  buildWatchEvent,
  errorFixture,
  execResultFixture,
  extensionFixture,
  invocationBrowsersFixture,
  invocationFixture,
  processOutputEventFixture,
  processStatusFixture,
  replayFixture,
  spawnedProcessFixture,
  validationErrorFixture,
  watchEventFixture,
  watchFixture,
} from './fixtures/records.js';
export { DEFAULT_FIXTURE_SEED, resetFixtures } from './fixtures/sequence.js';
export {
  Journal,
  JournalAssertionError,
  type JournalEntry,
  type JournalFilter,
} from './journal/journal.js';
