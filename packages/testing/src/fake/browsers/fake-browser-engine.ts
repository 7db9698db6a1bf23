import type { BrowserEngine, LaunchSpec, MemoryProfileStore } from '@x/service-kernel';
import { FakeInstance } from './fake-instance.js';

/** Starts simulated browsers at once; keeps every one it started, to inspect. */
export class FakeBrowserEngine implements BrowserEngine<FakeInstance> {
  readonly instances = new Map<string, FakeInstance>();
  readonly #clock: () => Date;
  readonly #profiles: MemoryProfileStore | undefined;

  /**
   * `clock`: the fake's, which its files' modification times follow; `profiles`: where browsers
   * load profiles from and save them into.
   */
  constructor(clock: () => Date = () => new Date(), profiles?: MemoryProfileStore) {
    this.#clock = clock;
    this.#profiles = profiles;
  }

  check(): void {
    // A simulated browser can be anything: headed ones too.
  }

  launch(spec: LaunchSpec): FakeInstance {
    const instance = new FakeInstance(spec.id, spec.viewport, this.#clock);
    instance.proxy = spec.proxy;
    const profiles = this.#profiles;
    if (profiles) {
      if (spec.profileId !== undefined) profiles.load(spec.profileId, instance.files);
      instance.saveInto = (profileId) => profiles.save(profileId, instance.files);
    }
    this.instances.set(spec.id, instance);
    return instance;
  }

  /** The instance of a browser, live or ended; throws for one the fake never started. */
  instance(browserId: string): FakeInstance {
    const instance = this.instances.get(browserId);
    if (!instance) throw new TypeError(`No browser "${browserId}" in the fake.`);
    return instance;
  }
}
